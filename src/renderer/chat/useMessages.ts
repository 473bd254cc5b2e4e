// All messages of one conversation, kept current by `messages:changed` events.
import { useEffect, useState } from 'react';
import type { Message } from '../../shared/domain';
import { call, useApi, useEvent } from '../api/apiContext';

const PAGE = 1000;

export function useMessages(conversationId: string): { messages: Message[]; loaded: boolean } {
  const api = useApi();
  const [messages, setMessages] = useState<Message[]>([]);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    // The view is keyed by conversation, so state starts empty for each one.
    let cancelled = false;
    (async () => {
      const all: Message[] = [];
      for (let offset = 0; ; offset += PAGE) {
        const page = await call(api, 'messages:list', { conversationId, offset, limit: PAGE });
        if (cancelled) return;
        all.push(...page.items);
        if (all.length >= page.total || page.items.length === 0) break;
      }
      // Events may have arrived while pages loaded; merge rather than overwrite.
      setMessages((current) => mergeMessages(all, current));
      setLoaded(true);
    })().catch(() => setLoaded(true));
    return () => {
      cancelled = true;
    };
  }, [api, conversationId]);

  useEvent(
    'messages:changed',
    (payload) => {
      if (payload.conversationId !== conversationId) return;
      setMessages((current) => mergeMessages(current, [payload.message]));
    },
    [conversationId],
  );
  useEvent(
    'messages:removed',
    (payload) => {
      if (payload.conversationId !== conversationId) return;
      setMessages((current) => current.filter((m) => m.id < payload.fromId));
    },
    [conversationId],
  );

  return { messages, loaded };
}

export function mergeMessages(base: Message[], updates: Message[]): Message[] {
  if (!updates.length) return base;
  const byId = new Map(base.map((m) => [m.id, m]));
  for (const update of updates) byId.set(update.id, update);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
