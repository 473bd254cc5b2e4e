// The desktop app: a hardened window around the same core the browser host serves.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, Menu, session, shell } from 'electron';
import { createCore, type Core } from '../core/createCore';
import { APP_NAME } from '../core/dataDir';
import { afterWorker, migrateInWorker, migrationPending, releaseAfterStop } from '../core/db/migrateAside';
import { updatingPage } from '../core/db/updatingPage';
import { checkEventsFrom } from '../core/ipc/eventBus';
import { prepareSettingsFile, SETTINGS_FILE } from '../core/settings/settingsFile';
import { openDataDir, type DataDirLock } from '../core/storage/openDataDir';
import { createElectronStoreBackend, createSafeStorageSecretStore } from './electronSettings';
import { registerIpc } from './ipcBridge';
import { createFileDialogs } from './fileDialogs';
import { buildMenu } from './menu';
import { installContentPolicy } from './contentPolicy';
import { installBackground } from './background';

app.setName(APP_NAME);

// out/main in the build, where this module is a chunk of its own (start.ts imports it) in
// out/main/chunks; the renderer, the preload and the migration worker are found from there.
const moduleDir = path.dirname(fileURLToPath(import.meta.url));
const here = path.basename(moduleDir) === 'chunks' ? path.dirname(moduleDir) : moduleDir;
const rendererIndex = path.join(here, '../renderer/index.html');
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;

let mainWindow: BrowserWindow | null = null;
let core: Core | null = null;
let background: ReturnType<typeof installBackground> | null = null;
/** While a worker updates the database: quitting stops it, and waits for its thread to end. */
let updating: { stop: AbortController; done: Promise<unknown> } | null = null;

/** The only pages allowed to call main: our built index.html or the dev server. */
function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (devServerUrl) return parsed.origin === new URL(devServerUrl).origin;
    return parsed.protocol === 'file:' && fileURLToPath(parsed) === rendererIndex;
  } catch {
    return false;
  }
}

function openExternalIfWeb(url: string): void {
  try {
    const { protocol } = new URL(url);
    if (protocol === 'https:' || protocol === 'http:') void shell.openExternal(url);
  } catch {
    // Not a URL at all: nothing to open.
  }
}

const appUrl = () => devServerUrl ?? pathToFileURL(rendererIndex).toString();
/** Shown while migrations run: no script, no preload calls, replaced by the app when done. */
const updatingUrl = () => `data:text/html;charset=utf-8,${encodeURIComponent(updatingPage())}`;

function createWindow(url = appUrl()): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: APP_NAME,
    show: false,
    autoHideMenuBar: false,
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      // No DevTools in a packaged app (the menu has no item for them either).
      devTools: !app.isPackaged,
    },
  });
  win.once('ready-to-show', () => win.show());
  win.webContents.setWindowOpenHandler(({ url }) => {
    openExternalIfWeb(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) {
      event.preventDefault();
      openExternalIfWeb(url);
    }
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  void win.loadURL(url);
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  return win;
}

function startCore(dataDir: string, instanceLock: DataDirLock): Core {
  let preparedSettings;
  try {
    preparedSettings = prepareSettingsFile(path.join(dataDir, SETTINGS_FILE));
  } catch (error) {
    instanceLock.release({ clean: false });
    throw error;
  }
  return createCore({
    instanceLock,
    dataDir,
    host: 'electron',
    version: app.getVersion(),
    settingsBackend: createElectronStoreBackend(dataDir),
    secrets: createSafeStorageSecretStore(dataDir),
    env: process.env,
    preparedSettings,
    fileDialogs: createFileDialogs(() => mainWindow),
    checkEvents: checkEventsFrom(process.env),
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });

  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      openExternalIfWeb(url);
      return { action: 'deny' };
    });
  });

  void app.whenReady().then(async () => {
    session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
    installContentPolicy(session.defaultSession);
    const dataDir = app.getPath('userData');
    try {
      // Before anything reads the directory: refuses a browser host already running on it.
      let lock = openDataDir(dataDir, 'the desktop app');
      // A database of an older version: the window says "Updating your data…" while a
      // worker checks and migrates it (the main thread stays free to paint); the core
      // opens the updated file afterwards.
      if (migrationPending(dataDir)) {
        mainWindow = createWindow(updatingUrl());
        const worker = { file: path.join(here, 'migrate.js') };
        const stop = new AbortController();
        const done = migrateInWorker(dataDir, worker, lock.uncleanShutdown, stop.signal);
        updating = { stop, done };
        const result = await done;
        updating = null;
        // Quit during the update: the app quits once the worker has ended.
        if (stop.signal.aborted) return releaseAfterStop(lock, result);
        lock = afterWorker(lock, result);
      }
      core = startCore(dataDir, lock);
    } catch (error) {
      dialog.showErrorBox('Stepwise cannot start', error instanceof Error ? error.message : String(error));
      app.quit();
      return;
    }
    const running = core;
    registerIpc(running, isAppUrl);
    Menu.setApplicationMenu(buildMenu((command) => running.bus.emit('app:command', { command })));
    if (mainWindow && !mainWindow.isDestroyed()) void mainWindow.loadURL(appUrl());
    else mainWindow = createWindow();
    background = installBackground({
      core: running,
      window: () => mainWindow,
      showWindow: () => {
        // One window: a notification or the tray brings it back, or opens it again once closed.
        if (!mainWindow || mainWindow.isDestroyed()) mainWindow = createWindow();
        else {
          if (mainWindow.isMinimized()) mainWindow.restore();
          mainWindow.show();
          mainWindow.focus();
        }
        return mainWindow;
      },
      quit: () => app.quit(),
    });
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
    });
  });

  app.on('window-all-closed', () => {
    // Settings → Routines: the app stays in the tray, and its routines keep running.
    if (background?.keepsRunning()) return;
    if (process.platform !== 'darwin') app.quit();
  });

  // Quit waits for the MCP servers to stop (stdin closed, SIGTERM, SIGKILL after a grace period).
  app.on('will-quit', (event) => {
    if (updating) {
      event.preventDefault();
      updating.stop.abort();
      void updating.done.finally(() => app.quit());
      return;
    }
    if (!core) return;
    event.preventDefault();
    const closing = core;
    core = null;
    background?.close();
    background = null;
    void closing.close().finally(() => app.quit());
  });
}
