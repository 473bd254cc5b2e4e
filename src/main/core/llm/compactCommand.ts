// `/compact` typed by the user: the same compaction the loop does near the window, run
// by hand as its own (stoppable) run. It ends with a note either way, never a Retry.
import type { LoopDeps, LoopOutcome, LoopRun } from './agentLoop';
import { ChatFailure, toChatError } from './chatErrors';
import { createClient, errorContext } from './openaiClient';
import { compactHistory } from './compactHistory';

export const COMPACT_AGENT = 'compact';

export async function runCompactCommand(deps: LoopDeps, run: LoopRun): Promise<LoopOutcome> {
  const { conversationId, signal } = run;
  const note = (content: string) => {
    const message = deps.messages.insert({ conversationId, role: 'system', origin: 'system', content });
    deps.bus.emit('messages:changed', { conversationId, message });
  };
  let connection;
  try {
    connection = deps.providers.forConversation(conversationId);
    const { client } = createClient(connection, {
      requestTimeoutMs: deps.options.requestTimeoutMs,
      maxRetries: deps.options.maxRetries,
      log: deps.options.log,
    });
    const summary = await compactHistory(
      deps,
      {
        conversationId,
        client,
        connection,
        temperature: deps.settings.effective().temperature,
        signal,
      },
      'manual',
    );
    if (!summary) note('Nothing to summarize yet: the conversation is only its newest exchange.');
    return { kind: 'complete' };
  } catch (error) {
    if (signal.aborted) return { kind: 'stopped' };
    const reason =
      error instanceof ChatFailure || !connection
        ? error instanceof Error
          ? error.message
          : String(error)
        : toChatError(error, errorContext(connection)).message;
    note(`The conversation could not be summarized: ${reason}`);
    return { kind: 'complete' };
  }
}
