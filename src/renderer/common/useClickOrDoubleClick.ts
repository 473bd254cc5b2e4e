// One control, two gestures: a click does one thing, a double-click another, and a
// double-click must not also do the click's thing. A mouse click waits out the
// double-click interval before it acts; a keyboard press (Enter, Space) acts at once.
import { useCallback, useEffect, useRef, type MouseEvent } from 'react';

/** About the double-click interval of desktop systems (Windows 500 ms, macOS ~400 ms by default). */
export const DOUBLE_CLICK_MS = 400;

export function useClickOrDoubleClick(onClick: () => void, onDoubleClick: () => void) {
  const pending = useRef<number | null>(null);
  const cancel = () => {
    if (pending.current !== null) window.clearTimeout(pending.current);
    pending.current = null;
  };
  useEffect(() => cancel, []);

  const click = useCallback(
    (event: MouseEvent) => {
      if (event.detail === 0) return onClick();
      if (event.detail > 1) return;
      cancel();
      pending.current = window.setTimeout(() => {
        pending.current = null;
        onClick();
      }, DOUBLE_CLICK_MS);
    },
    [onClick],
  );
  const doubleClick = useCallback(() => {
    cancel();
    onDoubleClick();
  }, [onDoubleClick]);
  return { onClick: click, onDoubleClick: doubleClick };
}
