// Where the app is and the ways to go elsewhere, for any view: the sidebar, the board or a
// page opens a conversation through `useNavigation()` rather than callbacks handed down
// through props. Requests to a view (focus its composer, rename, show a message) go with it.
import { createContext, useContext, useEffect } from 'react';
import { useStableHandler } from '../common/useLatest';
import type { RequestKind, RequestPayloads, Requests } from './requests';

export type RoutinePage = 'routines' | 'activity';

export interface Navigation {
  /** The conversation shown under any Settings page, or null when another page is. */
  conversationId: string | null;
  boardOpen: boolean;
  /** The Routines or Activity page when one is open. */
  routinePage: RoutinePage | null;
  settingsOpen: boolean;
  /** Opens a conversation (again) with its composer focused; `messageId`: show that message (a search result). */
  openConversation(id: string, at?: { messageId: number }): void;
  newConversation(): void;
  openBoard(): void;
  openRoutinePage(page: RoutinePage): void;
  openSettings(): void;
  /** Shows the sidebar when it is hidden. */
  showSidebar(): void;
  /** Shows the sidebar and focuses its search field, or the open conversation's row. */
  focusSearch(): void;
  focusConversations(): void;
  showShortcuts(): void;
  exportAllTasks(): void;
  importConversation(): void;
  /** A conversation was deleted: its view, if shown, goes. */
  deleted(id: string): void;
  requests: Requests;
}

export const NavigationContext = createContext<Navigation | null>(null);

export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('useNavigation outside NavigationContext');
  return navigation;
}

/**
 * Runs `run` for each request of `kind` addressed to `target`: one pending when the view
 * mounts, and every later one while it is mounted.
 */
export function useRequest<K extends RequestKind>(
  kind: K,
  target: string | null,
  run: (payload: RequestPayloads[K]) => void,
): void {
  const { requests } = useNavigation();
  const handler = useStableHandler(run);
  useEffect(() => {
    if (target === null) return;
    const take = () => {
      const found = requests.take(kind, target);
      if (found) handler(found.payload);
    };
    take();
    return requests.subscribe(take);
  }, [requests, kind, target, handler]);
}
