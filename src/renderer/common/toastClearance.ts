// Toasts sit above the composer, never over it (a "Downloaded …" toast used to cover the
// Send button). Every shown composer reports how far its top is from the window's bottom;
// the toast stack's `bottom` follows the largest value through a CSS variable.
import { useEffect, type RefObject } from 'react';

const shown = new Set<HTMLElement>();
const VARIABLE = '--composer-clearance';

function update() {
  let clearance = 0;
  for (const el of shown) {
    const rect = el.getBoundingClientRect();
    if (rect.height > 0) clearance = Math.max(clearance, window.innerHeight - rect.top);
  }
  document.documentElement.style.setProperty(VARIABLE, `${Math.max(0, Math.round(clearance))}px`);
}

export function useToastClearance(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    shown.add(el);
    const observer = new ResizeObserver(update);
    observer.observe(el);
    window.addEventListener('resize', update);
    update();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', update);
      shown.delete(el);
      update();
    };
  }, [ref]);
}
