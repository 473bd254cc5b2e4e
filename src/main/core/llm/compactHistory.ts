// Runs one compaction of a conversation's history: picks the older turns, asks the model
// for a summary and stores it as a note that stands in for them from now on.
import type OpenAI from 'openai';
import type { Message } from '../../../shared/domain';
import type { MessageRepo } from '../conversations/messageRepo';
import type { EventBus } from '../ipc/eventBus';
import type { Connection } from './connection';
import { summarize } from '../context/compaction';
import { compactionSplit, KEEP_SHARE } from '../context/requestHistory';
import { attachmentTokens, type TokenCounter } from '../context/tokenCount';
import { modelText } from '../../../shared/messageKinds';

export interface HistoryDeps {
  messages: MessageRepo;
  bus: EventBus;
  tokens: TokenCounter;
}

const PAGE = 200;

/**
 * The newest summary and the messages it does not cover — newest first, page by page,
 * only until they hold more than `maxTokens` (a request can never send more), so a
 * request in a 10,000-message conversation does not read all of it.
 */
export function loadHistory(
  messages: MessageRepo,
  conversationId: string,
  limit?: { maxTokens: number; counter: TokenCounter },
): { summary: Message | undefined; history: Message[] } {
  const summary = messages.latestSummary(conversationId);
  const floor = summary?.summaryThrough ?? 0;
  if (!limit)
    return { summary, history: summary ? messages.after(conversationId, floor) : messages.all(conversationId) };
  const pages: Message[][] = [];
  let tokens = 0;
  let before: number | undefined;
  for (;;) {
    const page = messages.pageBefore(conversationId, before, PAGE);
    const fresh = page.items.filter((m) => m.id > floor);
    pages.unshift(fresh);
    for (const m of fresh) {
      tokens +=
        limit.counter.text(modelText(m)) +
        (m.toolCalls ? limit.counter.text(JSON.stringify(m.toolCalls)) : 0) +
        attachmentTokens(m);
    }
    if (!page.hasMore || fresh.length < page.items.length || tokens > limit.maxTokens) break;
    before = page.items[0].id;
  }
  return { summary, history: pages.flat() };
}

/** Resolves with the stored summary note, or null when there was nothing older to summarize. */
export async function compactHistory(
  deps: HistoryDeps,
  request: { conversationId: string; client: OpenAI; connection: Connection; temperature: number; signal: AbortSignal },
  /** `/compact` by hand keeps only the newest exchange; near the window, what fits in KEEP_SHARE stays. */
  mode: 'auto' | 'manual' = 'auto',
): Promise<Message | null> {
  const keep = mode === 'manual' ? 0 : Math.floor(request.connection.contextWindow * KEEP_SHARE);
  // What is kept, then what the summary reads (at most 0.6 of the window, its newest part):
  // anything older would be clipped from the transcript anyway, so it is not read at all.
  const { summary, history } = loadHistory(deps.messages, request.conversationId, {
    maxTokens: keep + request.connection.contextWindow,
    counter: deps.tokens,
  });
  const split = compactionSplit(history, keep, deps.tokens);
  if (!split) return null;
  const text = await summarize({
    client: request.client,
    model: request.connection.model,
    temperature: request.temperature,
    previous: summary,
    older: split.older,
    contextWindow: request.connection.contextWindow,
    counter: deps.tokens,
    signal: request.signal,
  });
  const note = deps.messages.insert({
    conversationId: request.conversationId,
    role: 'system',
    origin: 'system',
    content: text,
    summaryThrough: split.throughId,
  });
  deps.bus.emit('messages:changed', { conversationId: request.conversationId, message: note });
  return note;
}
