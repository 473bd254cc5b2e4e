// The native application menu. Commands that belong to the UI are pushed to the
// renderer as `app:command` events.
import { app, Menu, type MenuItemConstructorOptions } from 'electron';
import type { AppCommand } from '../../shared/domain';

export function buildMenu(send: (command: AppCommand) => void): Menu {
  const isMac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
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
        { role: 'toggleDevTools' },
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
        { label: 'About Stepwise', click: () => app.showAboutPanel() },
      ],
    },
  ];
  return Menu.buildFromTemplate(template);
}
