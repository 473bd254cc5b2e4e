// A short title after the first exchange: one small non-streaming request asking for
// 3–6 words, or the first words of the user's message when that fails. A title the user
// set is never overwritten (the write is conditional on title_source = 'auto').
import type { Message } from '../../../shared/domain';
import type { Connection } from './connection';
import { createClient } from './openaiClient';
import { withoutThinking } from './thinkTags';

const TITLE_PROMPT =
  'Write a title of 3 to 6 words for the conversation below. Reply with the title only: no quotes, no trailing punctuation.';
const MAX_WORDS = 8;
const MAX_CHARS = 80;

export interface TitleRequest {
  connection: Connection;
  temperature: number;
  history: Message[];
  /** Ask the model; otherwise go straight to the fallback. */
  askModel: boolean;
  signal: AbortSignal;
  timeoutMs: number;
  log: (line: string) => void;
}

export async function makeTitle(request: TitleRequest): Promise<string | null> {
  const user = request.history.find((m) => m.role === 'user' && !m.plumbing);
  if (!user) return null;
  const reply = request.history.findLast((m) => m.role === 'assistant' && m.content.trim());
  if (request.askModel) {
    try {
      const { client } = createClient(request.connection, {
        requestTimeoutMs: request.timeoutMs,
        maxRetries: 0,
        log: request.log,
      });
      const transcript = [`User: ${clip(user.content)}`, reply ? `Assistant: ${clip(reply.content)}` : ''].filter(
        Boolean,
      );
      const completion = await client.chat.completions.create(
        {
          model: request.connection.model,
          temperature: request.temperature,
          stream: false,
          messages: [
            { role: 'system', content: TITLE_PROMPT },
            { role: 'user', content: transcript.join('\n\n') },
          ],
        },
        { signal: request.signal },
      );
      const title = cleanTitle(withoutThinking(completion.choices?.[0]?.message?.content ?? ''));
      if (title) return title;
    } catch {
      // A title is a nicety: any failure falls back to the user's own words.
      if (request.signal.aborted) return null;
    }
  }
  return fallbackTitle(user.content);
}

function clip(text: string): string {
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** The model's answer as a one-line title: plain text, no quotes, "Title:" or final period. */
export function cleanTitle(raw: string): string {
  const line = raw
    .split('\n')
    .map((l) => plainText(l).trim())
    .find(Boolean);
  if (!line) return '';
  const text = line
    .replace(/^title\s*:\s*/i, '')
    .replace(/^["'“‘«]+|["'”’»]+$/g, '')
    .replace(/[.!?:;,]+$/, '')
    .trim();
  return limitWords(text);
}

export function fallbackTitle(userText: string): string {
  const words = plainText(userText).replace(/\s+/g, ' ').trim().split(' ');
  const title = limitWords(words.slice(0, 6).join(' '));
  return words.length > 6 ? `${title}…` : title;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * A title is shown as text everywhere, so what would be markup is taken out rather than
 * shown raw: HTML tags and comments, Markdown links and images (their text stays),
 * emphasis, code spans, headings, quotes and list markers. Underscores inside words
 * (snake_case) are kept.
 */
export function plainText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<\/?[a-zA-Z][^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d{1,9}[.)]\s+)+/gm, '')
    .replace(/[*`~]+/g, '')
    .replace(/(^|[^\p{L}\p{N}_])_+|_+(?=$|[^\p{L}\p{N}_])/gu, '$1')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name]);
}

function limitWords(text: string): string {
  const words = text.split(/\s+/).filter(Boolean).slice(0, MAX_WORDS).join(' ');
  return words.length > MAX_CHARS ? `${words.slice(0, MAX_CHARS - 1).trimEnd()}…` : words;
}
