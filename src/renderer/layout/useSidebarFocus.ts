// The search field and the conversation list live in the sidebar: these show it first (it
// may be folded) and then give the focus to the search, or to the open conversation's row.
import { useCallback, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { SidebarLayout } from './useSidebarLayout';

export function useSidebarFocus(sidebar: SidebarLayout, searchRef: RefObject<HTMLInputElement | null>) {
  const focusSearch = useCallback(() => {
    if (sidebar.hidden) flushSync(sidebar.show);
    searchRef.current?.focus();
    searchRef.current?.select();
  }, [sidebar, searchRef]);

  const focusConversations = useCallback(() => {
    if (sidebar.hidden) flushSync(sidebar.show);
    // The list is virtual: its rows appear once it has measured itself, a frame or two later.
    const focusRow = (framesLeft: number) => {
      const list = document.querySelector<HTMLElement>('[aria-label="Conversations"] .conversation-list');
      const row =
        list?.querySelector<HTMLElement>('.selected .conversation-link') ??
        list?.querySelector<HTMLElement>('.conversation-link');
      if (row) row.focus();
      else if (framesLeft > 0) requestAnimationFrame(() => focusRow(framesLeft - 1));
      else searchRef.current?.focus();
    };
    focusRow(10);
  }, [sidebar, searchRef]);

  return { focusSearch, focusConversations };
}
