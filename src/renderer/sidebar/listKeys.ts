// The keyboard between the search box and the conversation list: ↓ (or Tab while a search
// shows results) goes from the box to the first row, ↑/↓ move between rows, and ↑ on the
// first row goes back to the box. Enter on a row is the link's own.
import type { KeyboardEvent, RefObject } from 'react';

const rowsOf = (list: HTMLElement | null) => [...(list?.querySelectorAll<HTMLElement>('.conversation-link') ?? [])];

/** In the search box: ↓, or Tab while searching, moves to the first drawn row. */
export function onSearchKey(event: KeyboardEvent<HTMLInputElement>, list: HTMLElement | null, searching: boolean) {
  const toList = event.key === 'ArrowDown' || (event.key === 'Tab' && !event.shiftKey && searching);
  if (!toList) return;
  const first = rowsOf(list)[0];
  if (!first) return;
  event.preventDefault();
  first.focus();
}

/** In the list: ↑/↓ between rows; ↑ on the first row returns to the search box. */
export function onListKey(
  event: KeyboardEvent<HTMLElement>,
  list: HTMLElement | null,
  search: RefObject<HTMLInputElement | null>,
) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const rows = rowsOf(list);
  const at = rows.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  event.preventDefault();
  const next = event.key === 'ArrowDown' ? rows[at + 1] : at === 0 ? search.current : rows[at - 1];
  next?.focus();
}
