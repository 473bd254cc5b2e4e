// `npm run cli -- routines run <name>` asks the running Stepwise for a run by leaving a
// small request file in the data directory; the app picks it up (at start and whenever
// the directory changes), removes it and starts the run. No port, no token: only someone
// who can write the data directory (the user) can ask.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const RUN_REQUESTS_DIR = 'routine-requests';
export const RunRequest = z.object({ name: z.string().min(1).max(200) });

export function watchRunRequests(dir: string, run: (name: string) => void, log: (line: string) => void): () => void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const take = () => {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch {
      return;
    }
    for (const file of names.sort()) {
      const full = path.join(dir, file);
      let text: string;
      try {
        text = fs.readFileSync(full, 'utf8');
        fs.rmSync(full, { force: true });
      } catch {
        continue;
      }
      try {
        const request = RunRequest.parse(JSON.parse(text));
        run(request.name);
      } catch (error) {
        log(
          `[stepwise] a routine run request was not carried out: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
  };
  take();
  let watcher: fs.FSWatcher | null = null;
  try {
    watcher = fs.watch(dir, () => take());
    watcher.on('error', () => undefined);
  } catch {
    // No watching on this file system: requests are read at the next start.
  }
  return () => watcher?.close();
}
