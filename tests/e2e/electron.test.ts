// Smoke test of the desktop app through playwright-core's _electron: launch the built app,
// see the window, create a conversation, check the window's hardening. It runs only where
// Electron's binary is installed (the first `npm start` downloads it); elsewhere it is
// reported as skipped. It never requires the `electron` package: that would start a download.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { OFFLINE_BASE_URL, ROOT } from './support/app';

/** The Electron binary `npm start` would run, or null when it has not been downloaded. */
function electronBinary(): string | null {
  const dir = path.join(ROOT, 'node_modules', 'electron');
  const pathFile = path.join(dir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(dir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

const binary = electronBinary();
const title = binary
  ? 'desktop app (Electron)'
  : 'desktop app (Electron) — skipped: no Electron binary here; `npm start` downloads it';

describe.skipIf(!binary)(title, () => {
  let home: string;
  let electronApp: ElectronApplication;
  let win: Page;

  beforeAll(async () => {
    // A throwaway home, so the app's data dir (userData) is not the developer's.
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-electron-'));
    const switches: string[] = [];
    if (process.platform === 'linux') {
      if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) switches.push('--ozone-platform=headless');
      if (process.getuid?.() === 0) switches.push('--no-sandbox');
    }
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && !/^(OPENAI_|STEPWISE_|ELECTRON_)/.test(key)) env[key] = value;
    }
    Object.assign(env, {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      APPDATA: path.join(home, 'AppData', 'Roaming'),
      OPENAI_BASE_URL: OFFLINE_BASE_URL,
    });
    electronApp = await _electron.launch({
      executablePath: binary!,
      args: [...switches, ROOT],
      env,
      cwd: ROOT,
      timeout: 45_000,
    });
    win = await electronApp.firstWindow();
    await win.getByRole('button', { name: 'New conversation', exact: true }).waitFor({ state: 'visible' });
  });

  afterAll(async () => {
    await electronApp?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('opens the window with the app and runs its core', async () => {
    expect(await win.title()).toMatch(/Stepwise/);
    const info = await win.evaluate(async () => {
      const api = (window as unknown as { stepwise: { invoke(name: string, params: unknown): Promise<unknown> } })
        .stepwise;
      return api.invoke('app:info', {});
    });
    expect(info).toMatchObject({ ok: true, value: { host: 'electron' } });
    const dataDir = (info as { value: { dataDir: string } }).value.dataDir;
    expect(dataDir.startsWith(home)).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'stepwise.db'))).toBe(true);
  });

  it('starts a conversation by sending its first message, and renames it', async () => {
    const link = (name: RegExp) => win.getByRole('list', { name: 'Saved conversations' }).getByRole('link', { name });
    await win.getByRole('button', { name: 'New conversation', exact: true }).click();
    // Typed at once: the new conversation is a draft in the page until this first send.
    await win.keyboard.type('From the desktop');
    await win.keyboard.press('Enter');
    // The offline model fails, so the title falls back to the message's first words.
    await link(/From the desktop/).waitFor();
    await win.keyboard.press('F2');
    const field = win.getByRole('textbox', { name: 'Conversation title' });
    await field.fill('Renamed on the desktop');
    await field.press('Enter');
    await link(/Renamed on the desktop/).waitFor();
  });

  it('exposes only the typed API to the page, in a hardened window', async () => {
    const page = await win.evaluate(() => ({
      api: Object.keys((window as unknown as { stepwise: object }).stepwise).sort(),
      // contextBridge hands the page a frozen copy: the preload's objects stay out of reach.
      frozen: Object.isFrozen((window as unknown as { stepwise: object }).stepwise),
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? '',
    }));
    expect(page).toMatchObject({ api: ['invoke', 'on'], frozen: true, require: 'undefined', process: 'undefined' });
    expect(page.csp).toContain("script-src 'self'");
    expect(page.csp).not.toContain('unsafe-eval');
    // Opening another window is denied (web links go to the system browser instead).
    await win.evaluate(() => window.open('about:blank'));
    expect(await electronApp.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1);
    const menu = await electronApp.evaluate(({ Menu }) => Menu.getApplicationMenu()?.items.map((i) => i.label) ?? []);
    expect(menu).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Help']));
  });
});
