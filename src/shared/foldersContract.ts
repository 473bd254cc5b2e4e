// Sidebar folders and the sidebar's rows: this feature's part of the IPC contract
// (merged into shared/ipc.ts).
import { z } from 'zod';
import { call, Empty, Page } from './contract';
import { Conversation } from './domain';
import { Folder, FolderId, FolderName, MoveToFolder, SidebarRow } from './folders';

export const folderCalls = {
  /** Sidebar folders, by name. */
  'folders:list': call(Empty, z.array(Folder)),
  'folders:create': call(z.strictObject({ name: FolderName }), Folder),
  'folders:rename': call(z.strictObject({ id: FolderId, name: FolderName }), Folder),
  'folders:setCollapsed': call(z.strictObject({ id: FolderId, collapsed: z.boolean() }), Folder),
  /** Deletes a folder; its conversations move out of it (`moved` of them), none is deleted. */
  'folders:delete': call(z.strictObject({ id: FolderId }), z.object({ id: FolderId, moved: z.number().int() })),
  /** Moves a conversation into a folder, or out of any with null. */
  'conversations:setFolder': call(MoveToFolder, Conversation),
  /** The sidebar without a search: pinned conversations, then each folder with its conversations (unless collapsed), then the rest. */
  'sidebar:rows': call(z.strictObject(Page), z.object({ rows: z.array(SidebarRow), total: z.number().int() })),
} as const;

export const folderEvents = {
  /** Folders were made, renamed, collapsed, deleted, or a conversation moved between them. */
  'folders:changed': z.object({ folders: z.array(Folder) }),
} as const;
