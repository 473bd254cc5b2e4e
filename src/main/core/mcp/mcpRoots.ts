// The roots Stepwise sends (`roots/list`): the folders the user lets every server use
// (Settings → Tools (MCP) → "Folders the tools may use"), then the conversation's own.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export interface Root {
  uri: string;
  name?: string;
}

export function rootsOf(folders: string[], conversation: Root[]): Root[] {
  const roots: Root[] = folders.map((folder) => ({
    uri: pathToFileURL(folder).href,
    name: path.basename(folder) || folder,
  }));
  for (const root of conversation) if (!roots.some((r) => r.uri === root.uri)) roots.push(root);
  return roots;
}
