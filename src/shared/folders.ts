// Folders: one level of them in the sidebar. A conversation is in at most one folder;
// deleting a folder moves its conversations out, it never deletes them.
import { z } from 'zod';
import { ConversationId, ConversationSummary } from './domain';

export const FOLDER_NAME_MAX = 100;

export const FolderId = z.uuid({ error: 'folder id must be a UUID' });

export const FolderName = z
  .string({ error: 'folder name must be text' })
  .trim()
  .min(1, { error: 'folder name must not be empty' })
  .max(FOLDER_NAME_MAX, { error: `folder name must be at most ${FOLDER_NAME_MAX} characters` });

export const Folder = z.object({
  id: FolderId,
  name: z.string(),
  collapsed: z.boolean(),
  /** Conversations in the folder (pinned ones included, which the sidebar shows on top). */
  count: z.number().int(),
});
export type Folder = z.infer<typeof Folder>;

/** One row of the sidebar without a search: a folder's header, or a conversation. */
export const SidebarRow = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('folder'), folder: Folder }),
  z.object({
    kind: z.literal('conversation'),
    conversation: ConversationSummary,
    /** The folder this row is shown under (null: pinned on top, or in no folder). */
    underFolder: FolderId.nullable(),
  }),
]);
export type SidebarRow = z.infer<typeof SidebarRow>;

export const MoveToFolder = z.strictObject({ id: ConversationId, folderId: FolderId.nullable() });
