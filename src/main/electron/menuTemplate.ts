// The native application menu as data (tests read it without starting Electron).
// Commands that belong to the UI are pushed to the renderer as `app:command` events.
import type { MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../shared/domain';

export interface MenuContext {
  platform: NodeJS.Platform;
  /** A packaged app has no DevTools item (and no shortcut for it). */
  packaged: boolean;
  send(command: AppCommand): void;
  showAbout(): void;
}

export function menuTemplate({ platform, packaged, send, showAbout }: MenuContext): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'New Conversation', accelerator: 'CmdOrCtrl+N', click: () => send('new-conversation') },
        { type: 'separator' },
        { label: 'Export All Task Lists…', click: () => send('export-all-tasks') },
        { label: 'Import Conversation…', click: () => send('import-conversation') },
        { type: 'separator' },
        { label: 'Settings', accelerator: 'CmdOrCtrl+,', click: () => send('open-settings') },
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        ...(packaged ? [] : [{ role: 'toggleDevTools' as const }]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    {
      role: 'help',
      submenu: [
        { label: 'Keyboard Shortcuts', click: () => send('open-shortcuts') },
        { label: 'About Stepwise', click: showAbout },
      ],
    },
  ];
}
