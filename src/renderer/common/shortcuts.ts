// Keyboard shortcuts, per host: a browser keeps Ctrl/⌘+N (new window) for itself, so the
// browser host offers Alt+N for a new conversation, and "/" focuses the search there too.

/** True in the desktop app (its preload provides the API), false under `npm run serve`. */
export const isDesktop = typeof window !== 'undefined' && window.stepwise !== undefined;

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export function isNewConversationKey(event: KeyboardEvent): boolean {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (mod && !event.shiftKey && !event.altKey && key === 'n') return true;
  // Alt+N; on a Mac keyboard Option+N types a dead key, so match the physical key.
  return event.altKey && !mod && !event.shiftKey && event.code === 'KeyN';
}

export function isSearchKey(event: KeyboardEvent): boolean {
  const mod = event.ctrlKey || event.metaKey;
  if (mod && !event.altKey && event.key.toLowerCase() === 'k') return true;
  return event.key === '/' && !mod && !event.altKey && !typing(event.target);
}

export const NEW_CONVERSATION_KEYS = isDesktop ? 'Ctrl/⌘ + N' : 'Alt + N';
export const SEARCH_KEYS = 'Ctrl/⌘ + K';
/** The browser host's other search key ("/"); the desktop app has none. */
export const SEARCH_ALT_KEY = isDesktop ? null : '/';

export function isSidebarKey(event: KeyboardEvent): boolean {
  const mod = event.ctrlKey || event.metaKey;
  return mod && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'b';
}

export const SIDEBAR_KEYS = 'Ctrl/⌘ + B';

/** The task board: Ctrl/⌘+Shift+T, or Alt+Shift+T where a browser keeps that for reopening a tab. */
export function isBoardKey(event: KeyboardEvent): boolean {
  const mod = event.ctrlKey || event.metaKey;
  if (!event.shiftKey || event.code !== 'KeyT') return false;
  return (mod && !event.altKey) || (event.altKey && !mod);
}

export const BOARD_KEYS = isDesktop ? 'Ctrl/⌘ + Shift + T' : 'Alt + Shift + T';
