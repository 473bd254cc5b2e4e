// The native application menu (its items: menuTemplate.ts).
import { app, Menu } from 'electron';
import type { AppCommand } from '../../shared/domain';
import { menuTemplate } from './menuTemplate';

export function buildMenu(send: (command: AppCommand) => void): Menu {
  return Menu.buildFromTemplate(
    menuTemplate({ platform: process.platform, packaged: app.isPackaged, send, showAbout: () => app.showAboutPanel() }),
  );
}
