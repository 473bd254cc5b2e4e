// Reloads mcp.json when it changes on disk, edits by hand included.
import fs from 'node:fs';

/** Calls `reload` shortly after `fileName` in `dir` changes; `close()` stops watching. */
export function watchConfigFile(dir: string, fileName: string, reload: () => void) {
  let reloadTimer: NodeJS.Timeout | null = null;
  let watcher: fs.FSWatcher | null = null;
  let closed = false;
  try {
    // The directory, not the file: editors and atomic writes replace the file.
    watcher = fs.watch(dir, (_event, name) => {
      if (name !== fileName || closed) return;
      if (reloadTimer) clearTimeout(reloadTimer);
      reloadTimer = setTimeout(reload, 50);
    });
    watcher.on('error', () => undefined);
  } catch {
    // No watching on this file system: edits apply after a restart.
  }
  return {
    close() {
      closed = true;
      watcher?.close();
      if (reloadTimer) clearTimeout(reloadTimer);
    },
  };
}
