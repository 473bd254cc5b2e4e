// A stand-in for the `electron` module, for tests only: the desktop adapter
// (src/main/electron/*) runs in Node against it, so its window options, navigation
// guards, IPC wiring, key storage and quit path are exercised without Electron's binary.
// It records what the adapter asks for and lets a test play Electron's part (emit app
// events, call the handlers it installed). Not a product path: the `_electron` smoke test
// (tests/e2e/electron.test.ts) still runs the real app wherever a binary exists.
import { EventEmitter } from 'node:events';

type Listener = (...args: unknown[]) => unknown;

export interface DoubleOptions {
  /** What `app.getPath(name)` returns. */
  paths: Record<string, string>;
  /** `app.requestSingleInstanceLock()`: false when another instance holds it. */
  singleInstance?: boolean;
  /** `safeStorage.isEncryptionAvailable()`. */
  encryption?: boolean;
}

/** Reversible, and plainly not the key: what the double's keychain "encrypts" to. */
const ENCRYPTED = 'double-encrypted:';

class WebContentsDouble extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: 'allow' | 'deny' }) | null = null;
  readonly sent: Array<{ channel: string; payload: unknown }> = [];
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'allow' | 'deny' }) {
    this.windowOpenHandler = handler;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
    this.emit('sent', channel, payload);
  }
  /** Resolves with the payload of the first event sent on `channel` from now on that matches. */
  nextSent(channel: string, match: (payload: unknown) => boolean = () => true): Promise<unknown> {
    return new Promise((resolve) => {
      const listener = (sentOn: string, payload: unknown) => {
        if (sentOn !== channel || !match(payload)) return;
        this.off('sent', listener);
        resolve(payload);
      };
      this.on('sent', listener);
    });
  }
  /** Plays a navigation: returns whether the adapter prevented it. */
  navigate(url: string): boolean {
    let prevented = false;
    this.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

function createDouble() {
  let options: DoubleOptions = { paths: {} };
  const appEvents = new EventEmitter();
  let ready: () => void = () => undefined;
  let whenReady = new Promise<void>((resolve) => (ready = resolve));
  const windows: BrowserWindow[] = [];
  const handlers = new Map<string, Listener>();
  const quitWaiters: Array<() => void> = [];
  const record = {
    quits: 0,
    openedExternally: [] as string[],
    errorBoxes: [] as Array<{ title: string; content: string }>,
    menus: [] as unknown[],
    encrypted: [] as string[],
    permissionRequestHandler: null as
      | null
      | ((wc: unknown, permission: string, callback: (granted: boolean) => void) => void),
    permissionCheckHandler: null as null | ((...args: unknown[]) => boolean),
    notifications: [] as NotificationDouble[],
    trays: [] as TrayDouble[],
    headersReceived: null as
      | null
      | ((
          details: { url: string; responseHeaders?: Record<string, string[]> },
          callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
        ) => void),
  };

  class BrowserWindow extends EventEmitter {
    readonly webContents = new WebContentsDouble();
    loadedUrl: string | null = null;
    shown = false;
    destroyed = false;
    constructor(readonly options: { webPreferences?: Record<string, unknown> } & Record<string, unknown>) {
      super();
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    static getAllWindows = () => windows.filter((w) => !w.destroyed);
    static getFocusedWindow = () => windows.at(-1) ?? null;
    loadURL(url: string) {
      this.loadedUrl = url;
      return Promise.resolve();
    }
    show() {
      this.shown = true;
    }
    /** Whether the window has the focus (a test plays the user switching away). */
    focused = true;
    isDestroyed = () => this.destroyed;
    isMinimized = () => false;
    isVisible = () => this.shown && !this.destroyed;
    isFocused = () => this.focused;
    restore() {}
    focus() {
      this.focused = true;
    }
    /** Plays the user closing the window. */
    close() {
      this.destroyed = true;
      this.emit('closed');
      if (windows.every((w) => w.destroyed)) app.emit('window-all-closed');
    }
  }

  /** An operating-system notification: recorded when shown; a test plays the click. */
  class NotificationDouble extends EventEmitter {
    static isSupported = () => true;
    shown = false;
    constructor(readonly options: { title: string; body?: string }) {
      super();
    }
    show() {
      this.shown = true;
      record.notifications.push(this);
    }
  }

  class TrayDouble extends EventEmitter {
    tooltip = '';
    menu: { template: Array<{ label?: string; click?: () => void }> } | null = null;
    destroyed = false;
    constructor(readonly image: unknown) {
      super();
      record.trays.push(this);
    }
    setToolTip(text: string) {
      this.tooltip = text;
    }
    setContextMenu(menu: { template: Array<{ label?: string; click?: () => void }> }) {
      this.menu = menu;
    }
    destroy() {
      this.destroyed = true;
    }
    /** Plays a click on the menu item of that label. */
    choose(label: string) {
      const item = this.menu?.template.find((i) => i.label === label);
      if (!item?.click) throw new Error(`electron double: the tray menu has no item "${label}"`);
      item.click();
    }
  }

  const app = Object.assign(appEvents, {
    isPackaged: false,
    setName: (_name: string) => undefined,
    getVersion: () => '0.0.0-test',
    getPath: (name: string) => {
      const found = options.paths[name];
      if (!found) throw new Error(`electron double: no path for ${name}`);
      return found;
    },
    requestSingleInstanceLock: () => options.singleInstance ?? true,
    whenReady: () => whenReady,
    quit: () => {
      record.quits++;
      for (const resolve of quitWaiters.splice(0)) resolve();
    },
    showAboutPanel: () => undefined,
  });

  const ipcMain = {
    handle(channel: string, handler: Listener) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, handler);
    },
    removeHandler: (channel: string) => void handlers.delete(channel),
  };

  const safeStorage = {
    isEncryptionAvailable: () => options.encryption ?? true,
    getSelectedStorageBackend: () => (options.encryption === false ? 'basic_text' : 'gnome_libsecret'),
    encryptString(text: string): Buffer {
      if (!(options.encryption ?? true)) throw new Error('Encryption is not available.');
      record.encrypted.push(text);
      return Buffer.from(ENCRYPTED + Buffer.from(text).toString('base64'));
    },
    decryptString(data: Buffer): string {
      const text = data.toString();
      if (!text.startsWith(ENCRYPTED))
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return Buffer.from(text.slice(ENCRYPTED.length), 'base64').toString();
    },
  };

  const electron = {
    app,
    BrowserWindow,
    Notification: NotificationDouble,
    Tray: TrayDouble,
    nativeImage: { createFromDataURL: (url: string) => ({ dataUrl: url }) },
    ipcMain,
    safeStorage,
    dialog: {
      showErrorBox: (title: string, content: string) => void record.errorBoxes.push({ title, content }),
      showSaveDialog: () => Promise.resolve({ canceled: true, filePath: undefined }),
      showOpenDialog: () => Promise.resolve({ canceled: true, filePaths: [] }),
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => ({ template }),
      setApplicationMenu: (menu: unknown) => void record.menus.push(menu),
    },
    shell: {
      openExternal: (url: string) => {
        record.openedExternally.push(url);
        return Promise.resolve();
      },
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: typeof record.permissionRequestHandler) =>
          void (record.permissionRequestHandler = handler),
        setPermissionCheckHandler: (handler: typeof record.permissionCheckHandler) =>
          void (record.permissionCheckHandler = handler),
        webRequest: {
          onHeadersReceived: (handler: typeof record.headersReceived) => void (record.headersReceived = handler),
        },
      },
    },
  };

  return {
    electron,
    record,
    windows,
    handlers,
    /** A fresh Electron for the next import of the adapter. */
    reset(next: DoubleOptions) {
      options = next;
      appEvents.removeAllListeners();
      whenReady = new Promise<void>((resolve) => (ready = resolve));
      windows.length = 0;
      handlers.clear();
      Object.assign(record, {
        quits: 0,
        openedExternally: [],
        errorBoxes: [],
        menus: [],
        encrypted: [],
        permissionRequestHandler: null,
        permissionCheckHandler: null,
        notifications: [],
        trays: [],
        headersReceived: null,
      });
    },
    /** Electron has finished starting: `app.whenReady()` resolves. */
    ready: () => ready(),
    /** Calls an `ipcMain.handle` handler as a page at `url` would. */
    invoke(channel: string, url: string, params: unknown): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler for ${channel}`);
      return Promise.resolve(handler({ senderFrame: { url } }, params));
    },
    /** Plays a quit: resolves once the adapter has let the app quit. */
    quit(): Promise<void> {
      let prevented = false;
      const quitted = new Promise<void>((resolve) => quitWaiters.push(resolve));
      app.emit('will-quit', { preventDefault: () => (prevented = true) });
      return prevented ? quitted : Promise.resolve();
    },
  };
}

type Double = ReturnType<typeof createDouble>;
/** One double per process: a test's vi.resetModules() must not make the adapter see another. */
export const electronDouble: Double = ((globalThis as { stepwiseElectronDouble?: Double }).stepwiseElectronDouble ??=
  createDouble());
export type ElectronDouble = Double;
