// A virtualized message list: a 10,000-message conversation opens and scrolls smoothly.
// It follows new output while the user is at the bottom and stops when they scroll up.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Message } from '../../shared/domain';
import { MessageView } from './MessageView';

export function MessageList({ messages }: { messages: Message[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => messages[index]?.id ?? index,
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
    if (stick.current && messages.length) virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
  }, [messages.length, last?.content, virtualizer]);

  return (
    <div ref={scrollRef} className="message-scroll" role="log" aria-label="Messages" aria-live="off">
      <div className="message-list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const message = messages[row.index];
          return (
            <div
              key={row.key}
              data-index={row.index}
              ref={virtualizer.measureElement}
              className="message-row"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <MessageView message={message} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
