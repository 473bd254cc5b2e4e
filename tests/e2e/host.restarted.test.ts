// A tab left open while its host is restarted (kill -9, then a new start: a new token, and
// by default a new port) can never reconnect. It stops trying after a few attempts, says
// what to do, and no longer shows the reply it was waiting for as "Working…".
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appPerFile } from './support/appPerFile';
import { startHostProcess, type HostProcess } from './support/app';

const RESTARTED = 'Stepwise was restarted: open the new address shown where it runs.';

/** Hosts this file starts besides the app's own. */
const others: HostProcess[] = [];
// Every reply hangs: the conversation shows "Working…" until the host goes away.
const { app, server } = appPerFile({
  name: 'hostRestarted',
  server: { script: () => ({ hang: true }) },
  afterClose: () => Promise.all(others.map((host) => host.stop())),
});

async function waitingReply(page: Page) {
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  await page.getByRole('textbox', { name: 'Message' }).fill('Take your time');
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'Working…' }).waitFor();
}

async function killed(host: HostProcess) {
  const gone = new Promise((resolve) => host.child.once('exit', resolve));
  host.child.kill('SIGKILL');
  await gone;
}

describe('a tab whose host was restarted', () => {
  it('stops reconnecting at once when the port answers with another token, and clears "Working…"', async () => {
    const page = app.page;
    await waitingReply(page);
    await server.waitForChatRequests(1);
    await killed(app.host);
    // The same port (as with --port or STEPWISE_PORT), a new token.
    others.push(
      await startHostProcess({
        dataDir: app.dataDir,
        rawArgs: ['--port', String(app.host.port), '--data-dir', app.dataDir],
      }),
    );
    await page.getByRole('alert').filter({ hasText: RESTARTED }).waitFor();
    await expect.poll(() => page.getByText('Working…').count()).toBe(0);
    expect(await page.getByText('Reconnecting…').count()).toBe(0);
  });

  it('stops after a few tries when nothing listens where it was (a new port)', async () => {
    const host = others[0];
    const page = await app.context.newPage();
    await page.goto(host.url);
    await waitingReply(page);
    await killed(host);
    await page.getByRole('alert').filter({ hasText: 'Reconnecting…' }).waitFor();
    await page.getByRole('alert').filter({ hasText: RESTARTED }).waitFor();
    await expect.poll(() => page.getByText('Working…').count()).toBe(0);
  });
});
