// The first start on a database of an older version (issue 39): the page says "Updating
// your data…" at once, the app loads behind the notice while a worker migrates, and the app
// is drawn over the notice once the core is there, in the same page (no second load). The
// host runs in this process with a core that waits for the test, so every state is seen
// whatever the machine's speed.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { migrateInWorker } from '../../src/main/core/db/migrateAside';
import { LATEST_VERSION } from '../../src/main/core/db/databaseFile';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { startHost } from '../../src/main/host/server';
import { makeDataDir, ROOT, sharedChromium } from './support/app';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('says "Updating your data…" while the data is updated, then draws the app in the same page', async () => {
  const dataDir = makeDataDir();
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  openDatabase(dataDir, { targetVersion: LATEST_VERSION - 4 }).db.close();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const core = gate
    .then(() => migrateInWorker(dataDir, { file: path.join(ROOT, 'out/main/migrate.js') }))
    .then(() => createNodeCore({ dataDir }));
  const host = await startHost({ core, rendererDir: path.join(ROOT, 'out/renderer') });
  cleanups.push(async () => {
    await host.close();
    (await core).close();
  });
  const page = await (await sharedChromium()).newPage();
  cleanups.push(() => page.close());
  const loads: string[] = [];
  page.on('load', () => loads.push(page.url()));

  // The app's script runs behind the notice: it opens its socket, which the host holds.
  const socket = page.waitForEvent('websocket');
  await page.goto(host.url);
  const notice = page.getByRole('status').filter({ hasText: 'Updating your data…' });
  await notice.waitFor();
  await socket;
  expect(await page.getByRole('button', { name: 'New conversation', exact: true }).count()).toBe(0);
  expect(await notice.isVisible()).toBe(true);

  release();
  await page.getByRole('button', { name: 'New conversation', exact: true }).first().waitFor();
  expect(await notice.count()).toBe(0);
  expect(loads).toEqual([host.url]);
});
