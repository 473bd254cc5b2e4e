// The desktop app's part of Routines and Activity: an operating-system notification for
// an Activity event Settings → Notifications asks for, while the window is not focused
// (clicking it opens the conversation in the one window); and, with Settings → Routines →
// "Keep running in the background when the window is closed", a tray icon that keeps the
// app (and its routines) going with no window, reopens the window, or quits.
import { Menu, Notification, Tray, nativeImage, type BrowserWindow } from 'electron';
import type { Core } from '../core/createCore';
import { ACTIVITY_LABELS } from '../../shared/activityLabels';

/** A small round mark in the app's accent colour. */
const TRAY_ICON =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAMElEQVR42mNgoDbwd3v6Hx+mSDNeQ4jVjNUQUjVjGDJqwLAwgOKERJWkTJXMRA4AADI3qVwsccYmAAAAAElFTkSuQmCC';

export interface BackgroundDeps {
  core: Core;
  /** The window, if one is open. */
  window(): BrowserWindow | null;
  /** Opens the window (a new one if none is open) and brings it to the front. */
  showWindow(): BrowserWindow;
  quit(): void;
}

export function installBackground(deps: BackgroundDeps) {
  const { core } = deps;
  let tray: Tray | null = null;

  function open(conversationId: string | null): void {
    deps.showWindow();
    if (conversationId) core.bus.emit('activity:open', { conversationId });
  }

  const notifying = core.bus.on('activity:added', ({ event, notify }) => {
    if (!notify || !Notification.isSupported()) return;
    const win = deps.window();
    if (win && !win.isDestroyed() && win.isVisible() && win.isFocused()) return;
    const body = event.detail ? `${ACTIVITY_LABELS[event.kind]}: ${event.detail}` : ACTIVITY_LABELS[event.kind];
    const shown = new Notification({ title: event.title, body });
    shown.on('click', () => {
      void core.dispatch('activity:markRead', { id: event.id });
      open(event.conversationId);
    });
    shown.show();
  });

  function showTray(): void {
    if (tray) return;
    tray = new Tray(nativeImage.createFromDataURL(TRAY_ICON));
    tray.setToolTip('Stepwise: routines keep running');
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: 'Open Stepwise', click: () => open(null) },
        { type: 'separator' },
        { label: 'Quit Stepwise', click: () => deps.quit() },
      ]),
    );
    tray.on('click', () => open(null));
  }

  return {
    /** The last window closed: true when the app stays (in the tray) instead of quitting. */
    keepsRunning(): boolean {
      if (!core.routines.activity.settings().keepRunning) return false;
      showTray();
      return true;
    },
    /** The tray, while the app runs in the background. */
    tray: () => tray,
    close(): void {
      notifying.dispose();
      tray?.destroy();
      tray = null;
    },
  };
}
