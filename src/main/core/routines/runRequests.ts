// `npm run cli -- routines run <name>` asks the running Stepwise for a run by leaving a
// small request file (`routine-run-request-*.json`, private) in the data directory; the
// app picks it up (at start and whenever such a file appears), removes it and starts the
// run. No port, no token: only someone who can write the data directory (the user) can ask.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

export const RUN_REQUEST_PREFIX = 'routine-run-request-';
export const RunRequest = z.object({ name: z.string().min(1).max(200) });

const isRequest = (file: string | null) => !!file && file.startsWith(RUN_REQUEST_PREFIX) && file.endsWith('.json');

export function watchRunRequests(
  dataDir: string,
  run: (name: string) => void,
  log: (line: string) => void,
): () => void {
  const take = () => {
    let names: string[];
    try {
      names = fs.readdirSync(dataDir).filter(isRequest);
    } catch {
      return;
    }
    for (const file of names.sort()) {
      const full = path.join(dataDir, file);
      let text: string;
      try {
        text = fs.readFileSync(full, 'utf8');
        fs.rmSync(full, { force: true });
      } catch {
        continue;
      }
      try {
        run(RunRequest.parse(JSON.parse(text)).name);
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
    // The directory sees every database write too: only a request's name makes it look.
    watcher = fs.watch(dataDir, (_event, file) => {
      if (isRequest(file)) take();
    });
    watcher.on('error', () => undefined);
  } catch {
    // No watching on this file system: requests are read at the next start.
  }
  return () => watcher?.close();
}
