// The messages of one conversation that the view has loaded: the newest window first,
// older pages as the user scrolls up. A query of the renderer's cache (`query/`), kept
// current by `messages:*` events.
import { useCallback, useRef } from 'react';
import type { Message } from '../../shared/domain';
import type { EventPayload, StepwiseApi } from '../../shared/ipc';
import { call, useApi } from '../api/apiContext';
import { paced } from '../query/pace';
import { queryCacheOf, useQuery, type Query } from '../query/useQuery';

/** Enough rows to fill a tall window several times over; older ones load on demand. */
export const FIRST_PAGE = 100;
const OLDER_PAGE = 200;

export interface LoadedMessages {
  messages: Message[];
  loaded: boolean;
  /** Older messages exist that are not loaded yet. */
  hasOlder: boolean;
  /** Loads the previous page; resolves once it is in `messages` (or nothing was left). */
  loadOlder: () => Promise<void>;
  /** Loads pages until the message with this id (or the first message) is in `messages`. */
  loadUntil: (id: number) => Promise<void>;
}

/**
 * Streamed text is shown at most this often. Each render parses the reply's new blocks
 * and lays out and paints the message again; at every frame that work kept a 2-core
 * machine busy (a 20,000-token reply took about 15% more time and CPU, A/B over
 * alternating rounds). 20 updates a second still reads as live (the Vercel AI SDK
 * suggests the same 50 ms).
 */
export const STREAM_RENDER_MS = 50;

interface MessagesState {
  /** Sorted by id. */
  messages: Message[];
  hasOlder: boolean;
  /** The first page is in (events may fill the state before it). */
  loaded: boolean;
  /**
   * What the last change was: streamed text renders at most every STREAM_RENDER_MS, an
   * event at the next frame, a page at once (see `paced`); a tool call (`call`) at the
   * frame after the next, so that the tool's push (a task list's `tasks:changed`, sent
   * right after the call is stored) is handled and drawn first rather than behind it.
   */
  change: 'page' | 'event' | 'streamed' | 'call';
}

const NOTHING_YET: MessagesState = { messages: [], hasOlder: false, loaded: false, change: 'page' };

/** The newest page, then older ones until the message `oldest` (as far back as was loaded). */
async function readBack(api: StepwiseApi, conversationId: string, oldest: number): Promise<MessagesState> {
  let page = await call(api, 'messages:list', { conversationId, limit: FIRST_PAGE });
  let items = page.items;
  while (page.hasMore && items.length && items[0].id > oldest) {
    page = await call(api, 'messages:list', { conversationId, before: items[0].id, limit: OLDER_PAGE });
    items = [...page.items, ...items];
  }
  return { messages: items, hasOlder: page.hasMore, loaded: true, change: 'page' };
}

function messagesOf(conversationId: string): Query<MessagesState> {
  const changed = (
    state: MessagesState | undefined,
    messages: Message[],
    change: MessagesState['change'] = 'event',
  ): MessagesState => ({
    ...(state ?? NOTHING_YET),
    messages,
    change,
  });
  return {
    key: `messages:list ${conversationId}`,
    // A reload (another version shown: the branch after it differs) reads as far back as was loaded.
    load: (api, current) =>
      readBack(api, conversationId, current?.messages[0]?.id ?? Infinity).catch((error: unknown) => {
        // A first page that cannot be read shows an empty conversation, not loading forever.
        if (current) throw error;
        return { ...NOTHING_YET, loaded: true };
      }),
    // Events may have arrived while the first page loaded: merge rather than overwrite. A
    // reload's answer replaces the branch that was shown.
    merge: (answer, current) =>
      current.loaded ? answer : { ...answer, messages: upsertAll(answer.messages, current.messages) },
    follow: (api, control) => {
      const mine = (payload: { conversationId: string }) => payload.conversationId === conversationId;
      const shown = () => control.current()?.messages ?? [];
      const off = [
        api.on('messages:changed', (payload) => {
          if (mine(payload)) {
            const { message } = payload;
            const call = message.role === 'assistant' && message.status === 'complete' && !!message.toolCalls?.length;
            control.set(changed(control.current(), upsert(shown(), message), call ? 'call' : 'event'));
          }
        }),
        api.on('messages:streamed', (payload) => {
          if (!mine(payload)) return;
          const next = applyStreamed(shown(), payload);
          if (next)
            return control.set(changed(control.current(), next, payload.toolCalls?.length ? 'call' : 'streamed'));
          // Out of step (the page opened mid-stream): fetch the message as it is now.
          void control.extend(call(api, 'messages:get', { conversationId, id: payload.messageId }), (message, state) =>
            changed(state, upsert(state?.messages ?? [], message)),
          );
        }),
        api.on('messages:removed', (payload) => {
          if (mine(payload))
            control.set(
              changed(
                control.current(),
                shown().filter((m) => m.id < payload.fromId),
              ),
            );
        }),
        api.on('messages:switched', (payload) => {
          if (mine(payload)) control.reload();
        }),
      ];
      return () => off.forEach((unsubscribe) => unsubscribe());
    },
  };
}

/** Pages at once, events once a frame, and streamed text at most every STREAM_RENDER_MS (see there). */
const messagesPace = paced<MessagesState>(
  (state) =>
    state?.change === 'streamed'
      ? 'slow'
      : state?.change === 'page'
        ? 'now'
        : state?.change === 'call'
          ? 'late'
          : 'frame',
  STREAM_RENDER_MS,
);

export function useMessages(conversationId: string): LoadedMessages {
  const api = useApi();
  const query = messagesOf(conversationId);
  const [state] = useQuery(query, NOTHING_YET, undefined, messagesPace);
  const { key } = query;
  // One older page at a time per view (scrolling asks for it many times over).
  const loading = useRef<{ key: string; promise: Promise<void> } | null>(null);

  const loadOlder = useCallback((): Promise<void> => {
    if (loading.current?.key === key) return loading.current.promise;
    const cache = queryCacheOf(api);
    const current = cache.peek<MessagesState>(key);
    if (!current?.hasOlder) return Promise.resolve();
    const before = current.messages[0]?.id;
    const request = call(api, 'messages:list', { conversationId, before, limit: OLDER_PAGE });
    const promise = cache
      .extend<Awaited<typeof request>, MessagesState>(key, request, (page, state) => ({
        ...(state ?? NOTHING_YET),
        messages: upsertAll(page.items, state?.messages ?? []),
        hasOlder: page.hasMore,
        change: 'page',
      }))
      .then(() => {
        if (loading.current?.promise === promise) loading.current = null;
      });
    loading.current = { key, promise };
    return promise;
  }, [api, conversationId, key]);

  const loadUntil = useCallback(
    async (id: number) => {
      const cache = queryCacheOf(api);
      for (;;) {
        const current = cache.peek<MessagesState>(key);
        if (!current?.hasOlder || (current.messages[0]?.id ?? Infinity) <= id) return;
        await loadOlder();
      }
    },
    [api, key, loadOlder],
  );

  return { messages: state.messages, loaded: state.loaded, hasOlder: state.hasOlder, loadOlder, loadUntil };
}

/** Index of the message with `id` in an id-sorted array, or where it would go (as ~index). */
function findIndex(messages: readonly Message[], id: number): number {
  let low = 0;
  let high = messages.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = messages[mid].id;
    if (at === id) return mid;
    if (at < id) low = mid + 1;
    else high = mid - 1;
  }
  return ~low;
}

/** Inserts or replaces one message, keeping id order; new messages almost always go last. */
export function upsert(messages: readonly Message[], message: Message): Message[] {
  const index = findIndex(messages, message.id);
  const next = messages.slice();
  if (index >= 0) next[index] = message;
  else next.splice(~index, 0, message);
  return next;
}

/** Merges a page into the loaded messages; `current` wins where both have a message. */
export function upsertAll(page: readonly Message[], current: readonly Message[]): Message[] {
  if (!current.length) return page.slice();
  const byId = new Map(page.map((m) => [m.id, m]));
  for (const m of current) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** Applies a streamed delta; null when the delta does not fit what is loaded. */
export function applyStreamed(
  messages: readonly Message[],
  delta: EventPayload<'messages:streamed'>,
): Message[] | null {
  const index = findIndex(messages, delta.messageId);
  if (index < 0) return null;
  const message = messages[index];
  let { content, toolCalls, reasoning } = message;
  if (delta.content) {
    if (delta.content.at !== content.length) return null;
    content += delta.content.text;
  }
  if (delta.toolCalls !== undefined) toolCalls = delta.toolCalls;
  if (delta.reasoning || delta.reasoningMs !== undefined) {
    const text = reasoning?.text ?? '';
    if (delta.reasoning && delta.reasoning.at !== text.length) return null;
    reasoning = {
      text: text + (delta.reasoning?.text ?? ''),
      durationMs: delta.reasoningMs ?? reasoning?.durationMs ?? null,
    };
  }
  const next = messages.slice();
  next[index] = { ...message, content, toolCalls, reasoning };
  return next;
}
