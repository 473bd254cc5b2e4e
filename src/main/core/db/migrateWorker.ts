// The worker thread of migrateAside.ts (a build entry of its own: out/main/migrate.js).
// It checks the file as every start does (the full integrity_check after an unclean
// shutdown), then opens it, which migrates it, and closes it again. A damaged file is left
// untouched for the ordinary open, which moves it aside and tells the user.
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { DEFAULT_BUSY_TIMEOUT_MS, checkHealth, openDatabase } from './openDatabase';
import { DB_FILE } from './databaseFile';

const { dataDir, fullCheck } = workerData as { dataDir: string; fullCheck: boolean };
try {
  const health = checkHealth(path.join(dataDir, DB_FILE), { full: fullCheck, timeout: DEFAULT_BUSY_TIMEOUT_MS });
  if (!health.ok) parentPort?.postMessage({ error: `the database needs repair: ${health.reason}` });
  else {
    openDatabase(dataDir, { healthChecked: true }).db.close();
    parentPort?.postMessage({ error: null });
  }
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
