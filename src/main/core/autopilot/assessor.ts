// One non-streaming request to the configured provider asking whether the current task is
// done. JSON mode is asked for; a server that rejects the parameter (400) is asked once
// more without it. Every failure comes back as a problem to show, never as a verdict.
import { BadRequestError } from 'openai';
import { redact, toChatError } from '../llm/chatErrors';
import { createClient, errorContext, type ClientOptions } from '../llm/openaiClient';
import { withoutThinking } from '../llm/thinkTags';
import type { Connection } from '../llm/connection';
import { ASSESSOR_SYSTEM, assessorUserMessage, type AssessedTask, type LastTurn } from './assessorPrompt';
import { parseVerdict, type VerdictResult } from './verdict';

export interface AssessRequest {
  /** The assessor's model (Settings), or the conversation's. */
  connection: Connection;
  task: AssessedTask;
  turn: LastTurn;
  signal: AbortSignal;
  client: ClientOptions;
}

/** A model's reason is shown in the UI: one line, not a wall of text. */
const REASON_MAX = 300;

export async function assess(request: AssessRequest): Promise<VerdictResult> {
  const { connection, signal } = request;
  const apiKey = connection.apiKey;
  const errorCtx = errorContext(connection);
  let answer: string;
  try {
    const { client } = createClient(connection, request.client);
    const messages = [
      { role: 'system' as const, content: ASSESSOR_SYSTEM },
      { role: 'user' as const, content: assessorUserMessage(request.task, request.turn) },
    ];
    const ask = (jsonMode: boolean) =>
      client.chat.completions.create(
        {
          model: connection.model,
          stream: false,
          messages,
          ...(jsonMode ? { response_format: { type: 'json_object' as const } } : {}),
        },
        { signal },
      );
    let completion;
    try {
      completion = await ask(true);
    } catch (error) {
      // Servers without JSON mode reject the parameter; the parser copes with plain text.
      if (!(error instanceof BadRequestError) || signal.aborted) throw error;
      request.client.log('[stepwise] the assessor request with response_format was rejected (400); asking without it');
      completion = await ask(false);
    }
    // R1-style models think aloud in `<think>` first; the verdict is what follows.
    answer = withoutThinking(completion.choices?.[0]?.message?.content ?? '');
  } catch (error) {
    if (signal.aborted) return { ok: false, problem: 'the check was cancelled' };
    return { ok: false, problem: `the assessor request failed: ${toChatError(error, errorCtx).message}` };
  }
  const result = parseVerdict(answer);
  if (!result.ok) return result;
  const reason = redact(result.verdict.reason, apiKey).replace(/\s+/g, ' ').trim();
  return {
    ok: true,
    verdict: {
      done: result.verdict.done,
      reason: reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX)}…` : reason,
    },
  };
}
