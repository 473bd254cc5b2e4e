// What the browser host leaves in the browser, and what it shows. Cookies ignore ports: a
// cookie set by the host on 127.0.0.1 would go to every other web server on this machine.
// The host sets none, so a tiny server on another loopback port, visited from the same
// browser after Stepwise was used, receives no Stepwise cookie. And a title holding a
// bidirectional override is shown with a visible marker, never reversed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './support/app';
import { appPerFile } from './support/appPerFile';

let other: http.Server;
const seen: Array<string | undefined> = [];

const { app } = appPerFile({
  name: 'host-safety',
  ready: async () => {
    other = http.createServer((req, res) => {
      seen.push(req.headers.cookie);
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>Another local server</title>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
  },
  afterClose: () => new Promise((resolve) => other?.close(resolve)),
});

it('another server on 127.0.0.1 receives no Stepwise cookie, and the app still works after a reload', async () => {
  const page = app.page;
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  expect(await app.context.cookies()).toEqual([]);

  const port = (other.address() as AddressInfo).port;
  const visitor = await app.context.newPage();
  await visitor.goto(`http://127.0.0.1:${port}/`);
  await expect.poll(() => visitor.title()).toBe('Another local server');
  expect(seen.length).toBeGreaterThanOrEqual(1);
  expect(seen.filter((cookie) => cookie !== undefined)).toEqual([]);
  await visitor.close();

  // The page's address carries the token, so a reload still connects.
  await page.reload();
  await page.getByRole('button', { name: 'New conversation', exact: true }).waitFor();
  await page.getByText('Connecting to Stepwise…').waitFor({ state: 'hidden' });
});

it('serves the page with its own CSP naming its socket, in place of the desktop policy without one', async () => {
  const reply = await fetch(app.url);
  const body = await reply.text();
  expect(body).not.toContain('http-equiv="Content-Security-Policy"');
  expect(reply.headers.get('content-security-policy')).toContain(
    `connect-src 'self' ws://127.0.0.1:${app.host.port} ws://localhost:${app.host.port}`,
  );
  // The desktop app loads the built file as it is: its policy allows no WebSocket.
  const desktop = fs.readFileSync(path.join(ROOT, 'out/renderer/index.html'), 'utf8');
  expect(desktop).toContain("connect-src 'self';");
  expect(desktop).not.toMatch(/connect-src[^;]*ws:/);
});

it('shows a bidirectional override in a title as a visible marker, in the heading and the sidebar', async () => {
  const page = app.page;
  await page.getByRole('button', { name: 'New conversation', exact: true }).click();
  // A new conversation is stored by its first message; then it can be renamed.
  await page.getByRole('textbox', { name: 'Message' }).fill('Pay the invoice');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: /^Rename “/ }).click();
  await page.getByRole('textbox', { name: 'Conversation title' }).fill('Invoice \u202Efdp.exe');
  await page.keyboard.press('Enter');
  const heading = page.getByRole('heading', { level: 1 });
  await expect.poll(() => heading.textContent()).toBe('Invoice [U+202E]fdp.exe');
  const sidebar = page.getByRole('list', { name: 'Saved conversations' });
  await expect
    .poll(async () => (await sidebar.locator('.conversation-title').allTextContents()).map((t) => t.trim()))
    .toContain('Invoice [U+202E]fdp.exe');
  expect(await page.locator('body').textContent()).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
});
