// Exposes exactly the typed contract to the page: invoke a known call, listen to a
// known event. No Node, no ipcRenderer, no arbitrary channels.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isCallName, isEventName, type EventName, type EventPayload, type StepwiseApi } from '../shared/ipc';

const api: StepwiseApi = {
  invoke(name, params) {
    if (!isCallName(name)) {
      return Promise.resolve({ ok: false, error: { code: 'unknown_method', message: `Unknown call ${String(name)}` } });
    }
    return ipcRenderer.invoke(`stepwise:call:${name}`, params);
  },
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) {
    if (!isEventName(event)) throw new Error(`Unknown event ${String(event)}`);
    const channel = `stepwise:event:${event}`;
    // Main sends each event as the contract types it (it is the one that validates).
    const wrapped = (_e: IpcRendererEvent, payload: EventPayload<E>) => listener(payload);
    ipcRenderer.on(channel, wrapped);
    return () => {
      ipcRenderer.removeListener(channel, wrapped);
    };
  },
};

contextBridge.exposeInMainWorld('stepwise', api);
