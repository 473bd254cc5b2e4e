// The desktop adapter's part of Routines and Activity, run in Node against the Electron
// double: an OS notification for an Activity event while the window is not focused (none
// while it is), whose click brings back the one window and opens the conversation; and
// "Keep running in the background when the window is closed" with its tray icon.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { electronDouble as double } from '../support/electronDouble';
import { makeTempDir, removeDir } from '../support/tempDir';

vi.mock('electron', async () => (await import('../support/electronDouble')).electronDouble.electron);
vi.mock('electron-store', () => ({
  default: class {
    store: Record<string, unknown> = {};
  },
}));

const ELECTRON_DIR = path.resolve(import.meta.dirname, '../../src/main/electron');
const APP_URL = pathToFileURL(path.join(ELECTRON_DIR, '../renderer/index.html')).toString();

let dir: string;

async function startApp() {
  double.reset({ paths: { userData: path.join(dir, 'userData'), downloads: dir } });
  vi.resetModules();
  await import('../../src/main/electron/main');
  double.ready();
  await double.electron.app.whenReady();
}

async function call(name: string, params: unknown) {
  const result = (await double.invoke(`stepwise:call:${name}`, APP_URL, params)) as { ok: boolean; value?: unknown };
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
  return result.value as Record<string, unknown>;
}

/** A routine whose run fails at once (no provider is set up): an Activity event that asks for a notification. */
async function failingRun(): Promise<{ event: { id: number; conversationId: string; title: string } }> {
  const saved = await call('routines:save', {
    id: null,
    routine: {
      name: 'Morning digest',
      instructions: 'Summarize the news.',
      schedule: { kind: 'daily', time: '07:00' },
      model: null,
      folderId: null,
      planReview: 'off',
      autopilot: true,
      tools: [],
      missed: 'run_once',
    },
  });
  const added = double.windows[0].webContents.nextSent('stepwise:event:activity:added');
  await call('routines:runNow', { id: (saved.routine as { id: string }).id });
  return (await added) as { event: { id: number; conversationId: string; title: string } };
}

beforeEach(() => {
  dir = makeTempDir('stepwise-electron-routines-');
});

afterEach(async () => {
  await double.quit();
  removeDir(dir);
});

describe('desktop notifications', () => {
  it('shows one while the window is not focused; its click brings the window back and opens the conversation', async () => {
    await startApp();
    const [win] = double.windows;
    win.shown = true;
    win.focused = false;
    const { event } = await failingRun();
    expect(double.record.notifications).toHaveLength(1);
    const [shown] = double.record.notifications;
    expect(shown.options.title).toBe(event.title);
    expect(shown.options.body).toMatch(/^failed: /);

    const opened = win.webContents.nextSent('stepwise:event:activity:open');
    const read = win.webContents.nextSent('stepwise:event:activity:read');
    shown.emit('click');
    expect(await opened).toEqual({ conversationId: event.conversationId });
    expect(await read).toEqual({ unread: 0 });
    expect(win.focused).toBe(true);
    expect(double.windows).toHaveLength(1);
  });

  it('shows none while the window is focused (the event is in Activity)', async () => {
    await startApp();
    double.windows[0].shown = true;
    const { event } = await failingRun();
    expect(double.record.notifications).toEqual([]);
    const inbox = await call('activity:list', {});
    expect((inbox.events as Array<{ id: number }>)[0].id).toBe(event.id);
  });
});

describe('Keep running in the background when the window is closed', () => {
  it('is off by default: closing the window quits', async () => {
    await startApp();
    expect((await call('activity:getSettings', {})).keepRunning).toBe(false);
    double.windows[0].close();
    expect(double.record.quits).toBe(1);
    expect(double.record.trays).toEqual([]);
  });

  it('on: closing the window leaves a tray icon that reopens the window or quits', async () => {
    await startApp();
    await call('activity:setSettings', { settings: { keepRunning: true } });
    double.windows[0].close();
    expect(double.record.quits).toBe(0);
    const [tray] = double.record.trays;
    expect(tray.tooltip).toBe('Stepwise: routines keep running');
    tray.choose('Open Stepwise');
    expect(double.windows.filter((w) => !w.destroyed)).toHaveLength(1);
    tray.choose('Quit Stepwise');
    expect(double.record.quits).toBe(1);
  });
});
