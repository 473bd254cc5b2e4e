// The browser host at start-up, end to end: `npm run serve` options and environment,
// refusing a newer database, recovering from a damaged one with a notice, and a sidebar
// that stays usable with 10,000 conversations.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { freePort, launchApp, makeDataDir, runHostToExit, SERVE_SCRIPT, startHostProcess } from './support/app';

describe('the host at start-up', () => {
  it('`npm run serve` takes the port and data dir from STEPWISE_PORT and STEPWISE_DATA_DIR, and prints one line', async () => {
    const dataDir = makeDataDir();
    const port = await freePort();
    const host = await startHostProcess({
      dataDir,
      script: SERVE_SCRIPT,
      rawArgs: [],
      env: { STEPWISE_PORT: String(port), STEPWISE_DATA_DIR: dataDir },
    });
    try {
      expect(host.port).toBe(port);
      expect(host.stdout()).toBe(`Stepwise is running at http://127.0.0.1:${port}/?token=${host.token}\n`);
      expect(fs.existsSync(path.join(dataDir, 'stepwise.db'))).toBe(true);
      expect((await fetch(host.url)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(401);
    } finally {
      expect(await host.stop()).toBe(0);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('`npm run serve` options win over the environment', async () => {
    const [fromEnv, fromArgs] = [makeDataDir(), makeDataDir()];
    const port = await freePort();
    const host = await startHostProcess({
      dataDir: fromArgs,
      script: SERVE_SCRIPT,
      rawArgs: ['--port', String(port), '--data-dir', fromArgs],
      env: { STEPWISE_PORT: '1', STEPWISE_DATA_DIR: fromEnv },
    });
    try {
      expect(host.port).toBe(port);
      expect(fs.existsSync(path.join(fromArgs, 'stepwise.db'))).toBe(true);
      expect(fs.existsSync(path.join(fromEnv, 'stepwise.db'))).toBe(false);
    } finally {
      await host.stop();
      for (const dir of [fromEnv, fromArgs]) fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad --port with a clear message', async () => {
    const dataDir = makeDataDir();
    try {
      const { code, stdout, stderr } = await runHostToExit({
        dataDir,
        rawArgs: ['--port', 'eighty', '--data-dir', dataDir],
      });
      expect(code).toBe(2);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        'stepwise: --port must be a number from 0 to 65535, not eighty\nUsage: npm run serve -- [--port <n>] [--data-dir <dir>]\n',
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a database from a newer Stepwise with a clear message and leaves it alone', async () => {
    const dataDir = makeDataDir();
    try {
      const file = path.join(dataDir, 'stepwise.db');
      const db = new Database(file);
      db.pragma('user_version = 999');
      db.close();
      const before = fs.readFileSync(file);
      const { code, stdout, stderr } = await runHostToExit({ dataDir });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toMatch(
        /^stepwise: .*stepwise\.db was written by a newer version of Stepwise .*Update Stepwise to open it/,
      );
      expect(fs.readFileSync(file)).toEqual(before);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('starts on a damaged database and shows a notice naming the file it moved aside', async () => {
    const dataDir = makeDataDir();
    fs.writeFileSync(path.join(dataDir, 'stepwise.db'), 'not a database at all '.repeat(100));
    const damaged = await launchApp({ dataDir });
    try {
      const [moved] = fs.readdirSync(dataDir).filter((f) => f.startsWith('stepwise.db.corrupt-'));
      expect(moved).toBeDefined();
      const notice = damaged.page.getByRole('alert').filter({ hasText: moved });
      await notice.waitFor({ state: 'visible' });
      expect(await notice.textContent()).toContain(path.join(dataDir, moved));
      await notice.getByRole('button', { name: 'Dismiss notice' }).click();
      await notice.waitFor({ state: 'detached' });
    } finally {
      await damaged.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a long conversation list', () => {
  it('shows 10,000 conversations through a virtualized, paged sidebar', async () => {
    const dataDir = makeDataDir();
    const { db } = openDatabase(dataDir);
    const insert = db.prepare(
      "INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source) VALUES (?, ?, ?, ?, 0, 'user')",
    );
    db.transaction(() => {
      for (let i = 0; i < 10_000; i++) {
        const at = 1_700_000_000_000 + i * 1000;
        insert.run(randomUUID(), `Conversation ${String(i).padStart(5, '0')}`, at, at);
      }
    })();
    db.close();
    const big = await launchApp({ dataDir });
    try {
      const rows = big.page.getByRole('list', { name: 'Saved conversations' });
      const titles = async () => (await rows.locator('.conversation-title').allTextContents()).map((t) => t.trim());
      await expect.poll(async () => (await titles())[0], { timeout: 10_000 }).toBe('Conversation 09999');
      // Only a window of rows is in the document, not 10,000.
      expect((await rows.getByRole('listitem').count()) < 100).toBe(true);

      await rows.evaluate((list) => {
        const scroller = list.parentElement!;
        scroller.scrollTop = scroller.scrollHeight;
      });
      await expect.poll(async () => (await titles()).at(-1), { timeout: 10_000 }).toBe('Conversation 00000');
      expect((await rows.getByRole('listitem').count()) < 100).toBe(true);

      await big.page.getByRole('searchbox', { name: 'Search conversations' }).fill('Conversation 0424');
      await expect
        .poll(titles, { timeout: 10_000 })
        .toEqual(Array.from({ length: 10 }, (_, i) => `Conversation 0424${9 - i}`));
    } finally {
      await big.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
