// The desktop app's file dialogs for export and import: main asks for the path, so the
// renderer never chooses (or sees) one.
import path from 'node:path';
import { app, BrowserWindow, dialog, type OpenDialogOptions, type SaveDialogOptions } from 'electron';
import type { FileDialogs } from '../core/export/exportModule';

export function createFileDialogs(window: () => BrowserWindow | null): FileDialogs {
  // Attached to the app window when there is one (a sheet on macOS).
  const owner = () => window() ?? BrowserWindow.getFocusedWindow();
  return {
    async save(defaultName, filters) {
      const options: SaveDialogOptions = {
        defaultPath: path.join(app.getPath('downloads'), defaultName),
        filters,
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const parent = owner();
      const result = parent ? await dialog.showSaveDialog(parent, options) : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    async open(filters) {
      const options: OpenDialogOptions = { filters, properties: ['openFile'] };
      const parent = owner();
      const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
      return result.canceled || result.filePaths.length === 0 ? null : result.filePaths[0];
    },
  };
}
