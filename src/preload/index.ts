// Exposes exactly the typed contract to the page: invoke a known call, listen to a
// known event. No Node, no ipcRenderer, no arbitrary channels.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isCallName, isEventName, type StepwiseApi } from '../shared/ipc';

const api: StepwiseApi = {
  invoke(name, params) {
    if (!isCallName(name)) {
      return Promise.resolve({ ok: false, error: { code: 'unknown_method', message: `Unknown call ${String(name)}` } });
    }
    return ipcRenderer.invoke(`stepwise:call:${name}`, params);
  },
  on(event, listener) {
    if (!isEventName(event)) throw new Error(`Unknown event ${String(event)}`);
    const channel = `stepwise:event:${event}`;
    const wrapped = (_e: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('stepwise', api);
