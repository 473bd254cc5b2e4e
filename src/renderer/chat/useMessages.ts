// The messages of one conversation that the view has loaded: the newest window first,
// older pages as the user scrolls up. Kept current by `messages:*` events.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Message } from '../../shared/domain';
import type { EventPayload } from '../../shared/ipc';
import { call, useApi, useEvent } from '../api/apiContext';

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

export function useMessages(conversationId: string): LoadedMessages {
  const api = useApi();
  const [messages, setMessages] = useState<Message[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [hasOlder, setHasOlder] = useState(false);
  // The source of truth, updated synchronously by every event so deltas apply in order;
  // React sees it at most once per animation frame, and streamed text at most every
  // STREAM_RENDER_MS (see there).
  const store = useRef({
    messages: [] as Message[],
    hasOlder: false,
    loading: null as Promise<void> | null,
    frame: 0,
    timer: 0,
    renderedAt: 0,
  });

  const commit = useCallback((next: Message[], streamed = false) => {
    const current = store.current;
    current.messages = next;
    // Anything but streamed text (the reply's end, a new message) shows at the next frame, with the text waiting.
    const show = () => {
      window.clearTimeout(current.timer);
      current.timer = 0;
      current.frame ||= requestAnimationFrame(() => {
        current.frame = 0;
        current.renderedAt = performance.now();
        setMessages(current.messages);
      });
    };
    if (current.frame) return;
    const wait = streamed ? current.renderedAt + STREAM_RENDER_MS - performance.now() : 0;
    if (wait > 0) current.timer ||= window.setTimeout(show, wait);
    else show();
  }, []);
  useEffect(() => {
    const current = store.current;
    return () => {
      cancelAnimationFrame(current.frame);
      window.clearTimeout(current.timer);
    };
  }, []);

  useEffect(() => {
    // The view is keyed by conversation, so state starts empty for each one.
    let cancelled = false;
    call(api, 'messages:list', { conversationId, limit: FIRST_PAGE })
      .then((page) => {
        if (cancelled) return;
        // Events may have arrived while the page loaded; merge rather than overwrite.
        const next = upsertAll(page.items, store.current.messages);
        store.current.messages = next;
        store.current.hasOlder = page.hasMore;
        setMessages(next);
        setHasOlder(page.hasMore);
        setLoaded(true);
      })
      .catch(() => !cancelled && setLoaded(true));
    return () => {
      cancelled = true;
    };
  }, [api, conversationId]);

  const loadOlder = useCallback((): Promise<void> => {
    const current = store.current;
    if (current.loading) return current.loading;
    if (!current.hasOlder) return Promise.resolve();
    const before = current.messages[0]?.id;
    current.loading = call(api, 'messages:list', { conversationId, before, limit: OLDER_PAGE })
      .then((page) => {
        current.hasOlder = page.hasMore;
        current.messages = upsertAll(page.items, current.messages);
        setHasOlder(page.hasMore);
        setMessages(current.messages);
      })
      .finally(() => {
        current.loading = null;
      });
    return current.loading;
  }, [api, conversationId]);

  const loadUntil = useCallback(
    async (id: number) => {
      while (store.current.hasOlder && (store.current.messages[0]?.id ?? Infinity) > id) await loadOlder();
    },
    [loadOlder],
  );

  useEvent(
    'messages:changed',
    (payload) => {
      if (payload.conversationId === conversationId) commit(upsert(store.current.messages, payload.message));
    },
    [conversationId, commit],
  );
  useEvent(
    'messages:streamed',
    (payload) => {
      if (payload.conversationId !== conversationId) return;
      const next = applyStreamed(store.current.messages, payload);
      if (next) return commit(next, true);
      // Out of step (the page opened mid-stream): fetch the message as it is now.
      call(api, 'messages:get', { conversationId, id: payload.messageId }).then(
        (message) => commit(upsert(store.current.messages, message)),
        () => {},
      );
    },
    [api, conversationId, commit],
  );
  useEvent(
    'messages:removed',
    (payload) => {
      if (payload.conversationId === conversationId) {
        commit(store.current.messages.filter((m) => m.id < payload.fromId));
      }
    },
    [conversationId, commit],
  );

  useEvent(
    'messages:switched',
    (payload) => {
      if (payload.conversationId !== conversationId) return;
      // Another version is shown: the branch after it differs. Reload as far back as was loaded.
      const current = store.current;
      const oldest = current.messages[0]?.id ?? Infinity;
      const reload = async () => {
        let page = await call(api, 'messages:list', { conversationId, limit: FIRST_PAGE });
        let items = page.items;
        while (page.hasMore && items.length && items[0].id > oldest) {
          page = await call(api, 'messages:list', { conversationId, before: items[0].id, limit: OLDER_PAGE });
          items = [...page.items, ...items];
        }
        current.messages = items;
        current.hasOlder = page.hasMore;
        setMessages(items);
        setHasOlder(page.hasMore);
      };
      current.loading = reload()
        .catch(() => {})
        .finally(() => {
          current.loading = null;
        });
    },
    [api, conversationId],
  );

  return { messages, loaded, hasOlder, loadOlder, loadUntil };
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
