// A virtualized message list: a 10,000-message conversation opens and scrolls smoothly.
// It follows new output while the user is at the bottom and stops when they scroll up.
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Message } from '../../shared/domain';
import { MessageView, type MessageActions } from './MessageView';
import { toDisplayItems } from './displayItems';

export function MessageList({
  messages,
  actions,
  scrollToMessageId,
  readOnly = false,
}: {
  messages: Message[];
  actions: MessageActions;
  scrollToMessageId?: { id: number; nonce: number } | null;
  /** Worker transcripts: no edit or regenerate. */
  readOnly?: boolean;
}) {
  const items = useMemo(() => {
    const all = toDisplayItems(messages);
    return readOnly ? all.map((item) => ({ ...item, isLastUser: false, isLastAssistant: false })) : all;
  }, [messages, readOnly]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => items[index]?.message.id ?? index,
  });

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = () => {
      stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  const last = messages.at(-1);
  useLayoutEffect(() => {
    if (stick.current && items.length) virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  }, [items.length, last?.content, last?.id, virtualizer]);

  useEffect(() => {
    if (!scrollToMessageId) return;
    // A task points at the message where it last changed; tool messages are folded
    // into their assistant message, so find the nearest shown item at or before it.
    const index = items.findLastIndex((item) => item.message.id <= scrollToMessageId.id);
    if (index >= 0) {
      stick.current = false;
      virtualizer.scrollToIndex(index, { align: 'center' });
      requestAnimationFrame(() => {
        const el = scrollRef.current?.querySelector(`[data-message-id="${items[index].message.id}"]`);
        el?.classList.add('flash');
        setTimeout(() => el?.classList.remove('flash'), 1200);
      });
    }
  }, [scrollToMessageId, items, virtualizer]);

  return (
    <div ref={scrollRef} className="message-scroll" role="log" aria-label="Messages" aria-live="off">
      <div className="message-list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="message-row"
            style={{ transform: `translateY(${row.start}px)` }}
          >
            <MessageView item={items[row.index]} actions={actions} />
          </div>
        ))}
      </div>
    </div>
  );
}
