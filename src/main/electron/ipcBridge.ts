// The Electron transport, generated from the contract: one ipcMain handler per call,
// one webContents channel per event. Only the app's own page may call.
import { BrowserWindow, ipcMain, type WebFrameMain } from 'electron';
import { callNames, type IpcResult } from '../../shared/ipc';
import type { Core } from '../core/createCore';

export const callChannel = (name: string) => `stepwise:call:${name}`;
export const eventChannel = (name: string) => `stepwise:event:${name}`;

export function registerIpc(core: Core, isAppUrl: (url: string) => boolean): () => void {
  for (const name of callNames) {
    ipcMain.handle(callChannel(name), async (event, params: unknown): Promise<IpcResult<unknown>> => {
      if (!isTrustedFrame(event.senderFrame, isAppUrl)) {
        return {
          ok: false,
          error: { code: 'invalid_request', message: 'Calls are accepted only from the Stepwise window.' },
        };
      }
      return core.dispatch(name, params);
    });
  }
  const forwarding = core.bus.subscribe((event, payload) => {
    for (const win of BrowserWindow.getAllWindows()) {
      if (!win.isDestroyed()) win.webContents.send(eventChannel(event), payload);
    }
  });
  return () => {
    forwarding.dispose();
    for (const name of callNames) ipcMain.removeHandler(callChannel(name));
  };
}

function isTrustedFrame(frame: WebFrameMain | null, isAppUrl: (url: string) => boolean): boolean {
  return !!frame && isAppUrl(frame.url);
}
