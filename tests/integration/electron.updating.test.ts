// The desktop adapter on a database of an older version (issue 39): its window says
// "Updating your data…" while the migrations run off the main thread, then loads the app
// into the same window. Run in Node against the `electron` double; the worker's built
// entry (out/main/migrate.js) does not exist beside the source, so the worker fails here
// and the core's own open migrates instead: the fallback a failed worker takes.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { LATEST_VERSION } from '../../src/main/core/db/databaseFile';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { UPDATING_TEXT } from '../../src/main/core/db/updatingPage';
import { electronDouble as double } from '../support/electronDouble';
import { readDb } from '../support/hostChild';
import { makeTempDir, removeDir } from '../support/tempDir';

vi.mock('electron', async () => (await import('../support/electronDouble')).electronDouble.electron);
vi.mock('electron-store', () => ({
  default: class {
    store: Record<string, unknown> = {};
  },
}));

const APP_URL = pathToFileURL(path.resolve(import.meta.dirname, '../../src/main/renderer/index.html')).toString();

let dir: string;
let dataDir: string;

beforeEach(() => {
  dir = makeTempDir('stepwise-electron-updating-');
  dataDir = path.join(dir, 'userData');
});

afterEach(async () => {
  await double.quit();
  removeDir(dir);
});

it('shows "Updating your data…" in the window during the migration, then the app in it', async () => {
  openDatabase(dataDir, { targetVersion: 27 }).db.close();
  double.reset({ paths: { userData: dataDir, downloads: dir } });
  vi.resetModules();
  await import('../../src/main/electron/main');
  double.ready();
  await double.electron.app.whenReady();

  expect(double.windows).toHaveLength(1);
  const [win] = double.windows;
  expect(win.loadedUrl).toMatch(/^data:text\/html/);
  expect(decodeURIComponent(win.loadedUrl!)).toContain(`<p role="status">${UPDATING_TEXT}</p>`);

  await vi.waitFor(() => expect(win.loadedUrl).toBe(APP_URL), { timeout: 30_000, interval: 20 });
  expect(double.windows).toHaveLength(1);
  expect(readDb(dataDir, (db) => db.pragma('user_version', { simple: true }))).toBe(LATEST_VERSION);
});
