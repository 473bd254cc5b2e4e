// A conversation whose sidebar place cannot have moved (same pin, folder and last
// activity: a new title, a task badge) is updated in the loaded rows, not refetched.
// The badge follows `tasks:changed` directly: the core sends no second event for it.
import type { ConversationSummary } from '../../shared/domain';
import type { SidebarRow } from '../../shared/folders';

/** The page with `conversation` in its row, or null when it is not there or may have moved. */
export function patchedPage(rows: readonly SidebarRow[], conversation: ConversationSummary): SidebarRow[] | null {
  const index = rows.findIndex((row) => row.kind === 'conversation' && row.conversation.id === conversation.id);
  const row = rows[index];
  if (!row || row.kind !== 'conversation') return null;
  const old = row.conversation;
  if (
    old.pinned !== conversation.pinned ||
    old.updatedAt !== conversation.updatedAt ||
    old.folderId !== conversation.folderId
  )
    return null;
  const next = rows.slice();
  // A search's match snippet belongs to the row, not to the pushed summary.
  next[index] = { ...row, conversation: { ...conversation, match: old.match } };
  return next;
}

/** The page with the conversation's task badge set, or null when the row is not there or already shows it. */
export function badgePatchedPage(
  rows: readonly SidebarRow[],
  conversationId: string,
  badge: ConversationSummary['tasks'],
): SidebarRow[] | null {
  const index = rows.findIndex((row) => row.kind === 'conversation' && row.conversation.id === conversationId);
  const row = rows[index];
  if (!row || row.kind !== 'conversation') return null;
  const old = row.conversation.tasks;
  if (old === badge || (old && badge && old.done === badge.done && old.total === badge.total)) return null;
  const next = rows.slice();
  next[index] = { ...row, conversation: { ...row.conversation, tasks: badge } };
  return next;
}
