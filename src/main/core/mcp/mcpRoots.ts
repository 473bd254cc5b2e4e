// The roots Stepwise sends (`roots/list`): the folders the user lets every server use
// (Settings → Tools (MCP) → "Folders the tools may use"), then the conversation's own.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EventBus } from '../ipc/eventBus';
import type { McpServer } from './mcpServer';

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

/** Servers hear of a change to the folders (they ask `roots/list` again). Returns the unsubscribe. */
export function watchRootFolders(bus: EventBus, folders: () => string[], servers: () => Iterable<McpServer>) {
  let sent = JSON.stringify(folders());
  return bus.on('settings:changed', () => {
    const next = JSON.stringify(folders());
    if (next === sent) return;
    sent = next;
    for (const server of servers())
      void server
        .live()
        ?.features.rootsChanged()
        .catch(() => undefined);
  });
}
