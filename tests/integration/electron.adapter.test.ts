// The desktop adapter (src/main/electron/main.ts) run in Node against a double of the
// `electron` module (tests/support/electronDouble.ts): its window's hardening, its
// navigation and permission guards, the IPC wiring of every call, key storage through
// safeStorage, the single-instance lock and the quit path. Electron's binary is not
// needed; the `_electron` smoke test still runs the real app where one exists.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { callNames } from '../../src/shared/ipc';
import { electronDouble as double } from '../support/electronDouble';
import { alive, testServer, writeMcpConfig } from '../support/mcpFixtures';
import { makeTempDir, removeDir } from '../support/tempDir';

vi.mock('electron', async () => (await import('../support/electronDouble')).electronDouble.electron);
// electron-store reaches for Electron itself (outside what vi.mock reaches): an in-memory store.
vi.mock('electron-store', () => ({
  default: class {
    store: Record<string, unknown> = {};
  },
}));

const ELECTRON_DIR = path.resolve(import.meta.dirname, '../../src/main/electron');
const APP_URL = pathToFileURL(path.join(ELECTRON_DIR, '../renderer/index.html')).toString();
const INDEX_HTML = path.resolve(import.meta.dirname, '../../src/renderer/index.html');

let dir: string;
let dataDir: string;

async function startApp(options: { singleInstance?: boolean; encryption?: boolean } = {}) {
  double.reset({ paths: { userData: dataDir, downloads: dir }, ...options });
  vi.resetModules();
  await import('../../src/main/electron/main');
  double.ready();
  await double.electron.app.whenReady();
}

const call = (name: string, params: unknown, url = APP_URL) =>
  double.invoke(`stepwise:call:${name}`, url, params) as Promise<{
    ok: boolean;
    value?: unknown;
    error?: { code: string; message: string };
  }>;

beforeEach(() => {
  dir = makeTempDir('stepwise-electron-');
  dataDir = path.join(dir, 'userData');
});

afterEach(async () => {
  await double.quit();
  removeDir(dir);
});

describe('the window', () => {
  it('is hardened and loads the built page through the preload script', async () => {
    await startApp();
    expect(double.windows).toHaveLength(1);
    const [win] = double.windows;
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: path.join(ELECTRON_DIR, '../preload/index.cjs'),
    });
    expect(win.loadedUrl).toBe(APP_URL);
  });

  it('denies new windows, prevents navigation away, denies permissions, and sets the CSP header', async () => {
    await startApp();
    const { webContents } = double.windows[0];
    for (const url of [
      'https://example.com/a',
      'http://example.com/b',
      'javascript:alert(1)',
      'file:///etc/passwd',
      'data:text/html,x',
    ]) {
      expect(webContents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    }
    expect(webContents.navigate('https://evil.example/')).toBe(true);
    expect(webContents.navigate('file:///etc/passwd')).toBe(true);
    expect(webContents.navigate(APP_URL)).toBe(false);
    // shell.openExternal only ever gets http(s) addresses.
    expect(double.record.openedExternally).toEqual([
      'https://example.com/a',
      'http://example.com/b',
      'https://evil.example/',
    ]);

    const granted: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      double.record.permissionRequestHandler!({}, permission, (answer) => granted.push(answer));
    }
    expect(granted).toEqual([false, false, false, false]);
    expect(double.record.permissionCheckHandler!()).toBe(false);

    let headers: Record<string, string[]> | undefined;
    double.record.headersReceived!(
      { url: APP_URL, responseHeaders: { 'Content-Type': ['text/html'] } },
      (response) => (headers = response.responseHeaders),
    );
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(
      fs.readFileSync(INDEX_HTML, 'utf8'),
    )![1];
    expect(headers).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [meta] });

    // The MCP App sandbox page gets the policy its own meta tag carries (the apps' outer bound).
    const sandboxUrl = pathToFileURL(path.join(ELECTRON_DIR, '../renderer/mcp-app-sandbox.html')).toString();
    double.record.headersReceived!(
      { url: sandboxUrl, responseHeaders: { 'Content-Type': ['text/html'] } },
      (response) => (headers = response.responseHeaders),
    );
    const sandboxMeta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(
      fs.readFileSync(path.resolve(import.meta.dirname, '../../src/renderer/public/mcp-app-sandbox.html'), 'utf8'),
    )![1];
    expect(headers!['Content-Security-Policy']).toEqual([sandboxMeta]);
  });
});

describe('IPC', () => {
  it('registers every call of the contract, refuses a bad payload and any other page', async () => {
    await startApp();
    expect([...double.handlers.keys()].sort()).toEqual(callNames.map((name) => `stepwise:call:${name}`).sort());
    expect(await call('app:info', {})).toMatchObject({ ok: true, value: { host: 'electron' } });
    expect(await call('conversations:create', { title: 5 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await call('app:info', {}, 'https://evil.example/')).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'Calls are accepted only from the Stepwise window.' },
    });
  });
});

describe('keys', () => {
  it('are stored through safeStorage, never in the clear', async () => {
    await startApp();
    const key = 'sk-electron-double-0123456789';
    expect(await call('providers:setKey', { id: 'default', key })).toMatchObject({ ok: true });
    // The key goes to the keychain (with the address it is for), and only there.
    expect(double.record.encrypted).toHaveLength(1);
    expect(JSON.parse(double.record.encrypted[0]).keys.default.key).toBe(key);
    const stored = fs.readFileSync(path.join(dataDir, 'api-key.enc'), 'utf8');
    expect(stored).not.toContain(key);
  });

  it('are not stored at all when encryption is unavailable', async () => {
    await startApp({ encryption: false });
    const result = await call('providers:setKey', { id: 'default', key: 'sk-electron-double-0123456789' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'unavailable', message: expect.stringContaining('no keychain') },
    });
    expect(double.record.encrypted).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'api-key.enc'))).toBe(false);
  });
});

describe('instances and quitting', () => {
  it('refuses a second instance: it quits without a window or a database', async () => {
    await startApp({ singleInstance: false });
    expect(double.record.quits).toBe(1);
    expect(double.windows).toEqual([]);
    expect(double.handlers.size).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'stepwise.db'))).toBe(false);
  });

  it('stops every MCP server and closes the database before quitting', async () => {
    writeMcpConfig(dataDir, { test: testServer() });
    await startApp();
    expect(await call('mcp:restart', { name: 'test' })).toMatchObject({ ok: true });
    const state = (await call('mcp:get', {})).value as { servers: Array<{ state: string; stderr: string[] }> };
    expect(state.servers[0].state).toBe('ready');
    const pid = Number(/^pid (\d+)$/.exec(state.servers[0].stderr.find((line) => line.startsWith('pid '))!)![1]);
    expect(alive(pid)).toBe(true);

    await double.quit();
    expect(double.record.quits).toBe(1);
    expect(alive(pid)).toBe(false);
    // SQLite removes the write-ahead log when the last connection closes cleanly.
    expect(fs.existsSync(path.join(dataDir, 'stepwise.db'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'stepwise.db-wal'))).toBe(false);
  });
});
