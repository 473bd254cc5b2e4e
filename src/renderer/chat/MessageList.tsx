// A virtualized message list: a 10,000-message conversation opens and scrolls smoothly.
// It follows new output while the user is at the bottom and stops when they scroll up.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Message } from '../../shared/domain';
import { MessageView, type MessageActions } from './MessageView';
import { toDisplayItems } from './displayItems';
import { holdPressed, pressedControl, type PressHold } from './holdPressed';
import './messages.css';

/** Start loading older messages this far (px) before the top is reached. */
const LOAD_OLDER_MARGIN = 600;

export function MessageList({
  messages,
  actions,
  scrollToMessageId,
  readOnly = false,
  hasOlder = false,
  onLoadOlder,
}: {
  messages: Message[];
  actions: MessageActions;
  scrollToMessageId?: { id: number; nonce: number } | null;
  /** Worker transcripts: no edit, regenerate or versions. */
  readOnly?: boolean;
  /** Older messages exist that are not loaded yet; `onLoadOlder` fetches the next page. */
  hasOlder?: boolean;
  onLoadOlder?: () => Promise<void>;
}) {
  const items = useMemo(() => toDisplayItems(messages, hasOlder), [messages, hasOlder]);
  const rowActions: MessageActions = readOnly ? { running: actions.running, agentName: actions.agentName } : actions;
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 6,
    getItemKey: (index) => items[index]?.message.id ?? index,
    // A synchronous re-render per measured row costs a third of streaming time; the
    // next frame is soon enough.
    useFlushSync: false,
  });

  // The first row in view before older rows are prepended, and its distance from the top.
  const anchor = useRef<{ id: number; offset: number; firstId: number } | null>(null);
  const loadingOlder = useRef(false);
  const older = useRef({ hasOlder, onLoadOlder });
  older.current = { hasOlder, onLoadOlder };
  const rows = useRef(items);
  rows.current = items;

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    let lastTop = el.scrollTop;
    const onScroll = () => {
      // Near the bottom, follow; moved up, stop. Any other scroll (the follow below, or
      // rows measured above) keeps the choice: text arriving meanwhile is not the user leaving.
      const nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      if (!hold.current?.isOwnScroll() && (nearBottom || el.scrollTop < lastTop - 1)) stick.current = nearBottom;
      lastTop = el.scrollTop;
      const { hasOlder: more, onLoadOlder: load } = older.current;
      if (!more || !load || loadingOlder.current || el.scrollTop > LOAD_OLDER_MARGIN) return;
      const first = virtualizer.getVirtualItems().find((row) => row.end > el.scrollTop);
      const item = first && rows.current[first.index];
      if (!first || !item) return;
      anchor.current = { id: item.message.id, offset: first.start - el.scrollTop, firstId: rows.current[0].message.id };
      loadingOlder.current = true;
      void load().finally(() => {
        loadingOlder.current = false;
      });
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [virtualizer]);

  // Keep the anchored row where it was once older rows are in: the view must not jump.
  useLayoutEffect(() => {
    const kept = anchor.current;
    if (!kept || items[0]?.message.id === kept.firstId) return;
    anchor.current = null;
    const index = items.findIndex((item) => item.message.id === kept.id);
    if (index < 0) return;
    const [start] = virtualizer.getOffsetForIndex(index, 'start') ?? [0];
    virtualizer.scrollToOffset(start - kept.offset);
  }, [items, virtualizer]);

  // Follows the list's growth once it is laid out (a ResizeObserver runs after layout):
  // scrolling from a layout effect instead read the height before layout, forcing one
  // in the middle of every streamed render. Each row is observed too, so a row that grows
  // (a card opening at the bottom) is followed in the frame it grew: the list's own height
  // comes a render later, and a frame with the new content out of view drew the approval
  // banner and moved buttons under the pointer.
  // While a pointer is pressed in the list the view does not follow the bottom, and what it
  // pressed is held where it was (holdPressed.ts): a click is a press and a release on the
  // same element, so neither new output nor a row above changing height may move it away.
  // It follows again once the pointer is up.
  const follower = useRef<ResizeObserver | null>(null);
  const pressed = useRef(false);
  const hold = useRef<PressHold | null>(null);
  const toBottom = () => {
    const el = scrollRef.current;
    if (pressed.current) hold.current?.restore();
    else if (el && stick.current) el.scrollTop = el.scrollHeight;
  };
  const follow = () => (follower.current ??= new ResizeObserver(toBottom));
  useEffect(() => {
    const el = scrollRef.current;
    const list = el?.firstElementChild;
    if (!el || !list) return;
    follow().observe(list);
    const press = (event: PointerEvent) => {
      pressed.current = true;
      hold.current?.stop();
      hold.current = holdPressed(el, pressedControl(el, event.target), document.body);
    };
    const release = () => {
      if (!pressed.current) return;
      pressed.current = false;
      hold.current?.stop();
      // After the click that this release makes, not before it.
      setTimeout(toBottom, 0);
    };
    el.addEventListener('pointerdown', press);
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
    window.addEventListener('blur', release);
    return () => {
      follower.current?.disconnect();
      follower.current = null;
      hold.current?.stop();
      el.removeEventListener('pointerdown', press);
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      window.removeEventListener('blur', release);
    };
  }, []);
  const measureRow = useCallback(
    (row: HTMLDivElement | null) => {
      virtualizer.measureElement(row);
      if (!row) return;
      follow().observe(row);
      return () => {
        follower.current?.unobserve(row);
        // What the virtualizer is told when a row goes: it drops rows no longer connected.
        virtualizer.measureElement(null);
      };
    },
    [virtualizer],
  );

  // The message a jump went to (a task's, a search result's) stays marked until the next jump.
  const [highlighted, setHighlighted] = useState<number | null>(null);
  const jumped = useRef<number | null>(null);
  useEffect(() => {
    // Each jump once: later renders (a streaming reply) must not pull the view back.
    if (!scrollToMessageId || jumped.current === scrollToMessageId.nonce) return;
    // A task points at the message where it last changed; tool messages are folded
    // into their assistant message, so find the nearest shown item at or before it.
    const index = items.findLastIndex((item) => item.message.id <= scrollToMessageId.id);
    if (index < 0) return;
    jumped.current = scrollToMessageId.nonce;
    stick.current = false;
    virtualizer.scrollToIndex(index, { align: 'center' });
    setHighlighted(items[index].message.id);
    // A reply of several responses: land on the step (or the tool call) inside it once drawn.
    const target = scrollToMessageId.id;
    if (items[index].steps && target !== items[index].message.id) {
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const step = scrollRef.current?.querySelector(`.turn-reply [data-message-id="${target}"]`);
          step?.scrollIntoView({ block: 'center' });
        }),
      );
    }
  }, [scrollToMessageId, items, virtualizer]);

  return (
    <div ref={scrollRef} className="message-scroll" role="log" aria-label="Messages" aria-live="off">
      <div className="message-list" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={measureRow}
            className={items[row.index]?.message.id === highlighted ? 'message-row highlighted' : 'message-row'}
            style={{ transform: `translateY(${row.start}px)` }}
          >
            <MessageView item={items[row.index]} actions={rowActions} />
          </div>
        ))}
      </div>
    </div>
  );
}
