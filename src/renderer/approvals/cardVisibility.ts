// Which approval cards are drawn, and whether each is in view: the approval is answered
// on its card, and the banner stands in for it only while the card is scrolled away.
import { useLayoutEffect, useSyncExternalStore, type RefObject } from 'react';

/**
 * `measuring`: drawn, but the observer has not reported yet. The banner waits for the
 * report rather than flashing a line that shifts the card its buttons are on.
 */
type Seen = 'measuring' | 'visible' | 'hidden';
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
  // Before the first paint: a banner drawn for one frame would move the card under the pointer.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    set(toolCallId, 'measuring');
    let confirming = 0;
    const observer = new IntersectionObserver(
      ([entry]) => {
        cancelAnimationFrame(confirming);
        if (entry.isIntersecting) return set(toolCallId, 'visible');
        // "Out of view" counts once it held for two frames: a card that just grew at the
        // bottom is out of view for the frame before the list follows it (its height is
        // measured a frame late), and a banner for that frame would shift the card.
        confirming = requestAnimationFrame(() => {
          confirming = requestAnimationFrame(() => set(toolCallId, 'hidden'));
        });
      },
      { threshold: 0.5 },
    );
    observer.observe(el);
    return () => {
      cancelAnimationFrame(confirming);
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
