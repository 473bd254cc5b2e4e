// "Folders the tools may use" of a sidebar folder: absolute paths sent to MCP servers as
// roots for the conversations in it (after Settings → Tools (MCP)'s). This feature's part of
// the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { FolderId } from './folders';

export const RootPaths = z
  .array(
    z
      .string()
      .trim()
      .max(4096)
      .regex(/^(\/|[A-Za-z]:[\\/]|\\\\)/, { error: 'a folder must be an absolute path (e.g. /home/me/project)' }),
  )
  .max(50, { error: 'at most 50 folders' });

export const mcpRootsCalls = {
  /** The paths a sidebar folder's conversations let MCP servers use. */
  'mcp:folderRoots': call(z.strictObject({ folderId: FolderId }), z.object({ paths: z.array(z.string()) })),
  /** Replaces them; servers are told their roots changed. */
  'mcp:setFolderRoots': call(
    z.strictObject({ folderId: FolderId, paths: RootPaths }),
    z.object({ paths: z.array(z.string()) }),
  ),
} as const;
