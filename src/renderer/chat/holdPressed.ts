// What a pointer presses in the message list stays under it until the release. A click is
// a press and a release on the same element: when something above the pressed button
// changes height in between (a card closing, the task header gaining a row), the button
// moves, the release lands on whatever took its place, and the click is lost.
// The correction is a scroll of the list by the distance the button moved, made as soon as
// the page changes (a MutationObserver runs before the next input event is handled) and
// after each layout change the list's ResizeObserver reports. Only controls are held: a
// press on text may be the start of a selection, which scrolls the list as it is dragged.

const CONTROLS =
  'button, a[href], input, select, textarea, summary, label, [role="button"], [role="link"], [role="menuitem"], [role="checkbox"], [role="radio"], [role="switch"], [role="tab"]';

/** The control a press in `list` landed on, or null (text, or the list's own scroll bar). */
export function pressedControl(list: Element, target: EventTarget | null): Element | null {
  const control = target instanceof Element ? target.closest(CONTROLS) : null;
  return control && list.contains(control) ? control : null;
}

export interface PressHold {
  /** Puts the pressed element back where it was pressed, as far as the list can scroll. */
  restore(): void;
  /**
   * True when the list's scroll position is the one `restore` set, not the user's (also
   * after `stop`: the scroll event of a last correction can come after the release).
   */
  isOwnScroll(): boolean;
  stop(): void;
}

/** `pressed`: null holds nothing (`pressedControl`). `watched`: the part of the page whose changes can move it. */
export function holdPressed(scroller: HTMLElement, pressed: Element | null, watched: Node): PressHold {
  const top = pressed?.getBoundingClientRect().top ?? 0;
  let set: number | null = null;
  const restore = () => {
    if (!pressed?.isConnected) return;
    const moved = pressed.getBoundingClientRect().top - top;
    if (Math.abs(moved) < 0.5) return;
    scroller.scrollTop += moved;
    set = scroller.scrollTop;
  };
  const changes = new MutationObserver(restore);
  if (pressed) changes.observe(watched, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    restore,
    isOwnScroll: () => set !== null && Math.abs(scroller.scrollTop - set) < 1,
    stop: () => changes.disconnect(),
  };
}
