// Compaction: the model summarizes the oldest turns into one note that stands in for
// them in later requests. The originals stay in the database and the transcript; the
// task list and workers live outside the history, so they are untouched.
import type OpenAI from 'openai';
import type { Message } from '../../../shared/domain';
import type { TokenCounter } from './tokenCount';
import { modelText } from '../../../shared/messageKinds';

export const COMPACT_COMMAND = '/compact';

const SUMMARY_PROMPT = [
  'You compact a conversation between a user and an AI assistant so it can continue within the model’s context window.',
  'Write a concise summary of the conversation below: the user’s goals and requests, decisions made, facts and results learned',
  '(including tool results that still matter), open questions, and what was being worked on last.',
  'Write it as notes for the assistant; do not address the user. The task list is kept separately; do not repeat it.',
].join(' ');

/** One tool result may be long (a file); the summary needs its gist, not all of it. */
const TOOL_RESULT_CHARS = 2000;

export function transcriptText(previous: Message | undefined, older: Message[]): string {
  const lines: string[] = [];
  if (previous) lines.push(`Summary of what came before:\n${previous.content}`);
  for (const m of older) {
    if (m.role === 'user') {
      // The summary keeps that files were attached (their contents are not resent here).
      const files = m.attachments?.length ? ` [attached: ${m.attachments.map((f) => f.name).join(', ')}]` : '';
      lines.push(`User: ${modelText(m)}${files}`);
    } else if (m.role === 'assistant') {
      if (m.content.trim()) lines.push(`Assistant: ${m.content}`);
      for (const call of m.toolCalls ?? []) lines.push(`Assistant called ${call.name}(${call.arguments})`);
    } else if (m.role === 'tool') {
      const text = m.content.length > TOOL_RESULT_CHARS ? `${m.content.slice(0, TOOL_RESULT_CHARS)}…` : m.content;
      lines.push(`Result of ${m.toolName ?? 'a tool'}: ${text}`);
    }
  }
  return lines.join('\n\n');
}

/** Keeps the newest part of `text` that fits in `maxTokens` (estimated by proportion). */
export function clipToTokens(text: string, maxTokens: number, counter: TokenCounter): string {
  const tokens = counter.text(text);
  if (tokens <= maxTokens) return text;
  const keep = Math.floor((text.length * maxTokens) / tokens);
  return `…${text.slice(text.length - keep)}`;
}

export async function summarize(request: {
  client: OpenAI;
  model: string;
  temperature: number;
  previous: Message | undefined;
  older: Message[];
  contextWindow: number;
  counter: TokenCounter;
  signal: AbortSignal;
}): Promise<string> {
  const text = clipToTokens(
    transcriptText(request.previous, request.older),
    Math.floor(request.contextWindow * 0.6),
    request.counter,
  );
  const completion = await request.client.chat.completions.create(
    {
      model: request.model,
      stream: false,
      temperature: Math.min(request.temperature, 0.3),
      messages: [
        { role: 'system', content: SUMMARY_PROMPT },
        { role: 'user', content: text },
      ],
    },
    { signal: request.signal },
  );
  const summary = completion.choices?.[0]?.message?.content?.trim();
  if (!summary) throw new Error('the model returned an empty summary');
  return summary;
}
