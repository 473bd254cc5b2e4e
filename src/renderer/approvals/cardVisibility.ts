// Which approval cards are drawn, and whether each is in view: the approval is answered
// on its card, and the banner stands in for it only while the card is scrolled away.
import { useEffect, useSyncExternalStore, type RefObject } from 'react';

type Seen = 'visible' | 'hidden';
const cards = new Map<string, Seen>();
const listeners = new Set<() => void>();
let version = 0;

function set(toolCallId: string, seen: Seen | null) {
  if ((cards.get(toolCallId) ?? null) === seen) return;
  if (seen) cards.set(toolCallId, seen);
  else cards.delete(toolCallId);
  version++;
  for (const listener of listeners) listener();
}

/** Tracks a card's panel while it is mounted. */
export function useCardVisibility(toolCallId: string, ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    set(toolCallId, 'hidden');
    const observer = new IntersectionObserver(
      ([entry]) => set(toolCallId, entry.isIntersecting ? 'visible' : 'hidden'),
      {
        threshold: 0.5,
      },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      set(toolCallId, null);
    };
  }, [toolCallId, ref]);
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** A card's state: visible, drawn but out of view, or not drawn (null). */
export function useCardSeen(): (toolCallId: string) => Seen | null {
  useSyncExternalStore(subscribe, () => version);
  return (toolCallId) => cards.get(toolCallId) ?? null;
}

/** Scrolls a drawn card into view. */
export function scrollToCard(toolCallId: string): void {
  document.querySelector(`[data-approval-call="${CSS.escape(toolCallId)}"]`)?.scrollIntoView({ block: 'center' });
}
