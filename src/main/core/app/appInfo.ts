// What the page shows in Settings → About and uses to tell the hosts apart.
import type { Handlers } from '../ipc/dispatcher';

export interface AppInfoDeps {
  version: string;
  host: 'electron' | 'browser';
  dataDir: string;
}

export function createAppInfo(deps: AppInfoDeps) {
  const handlers: Pick<Handlers, 'app:info'> = {
    'app:info': () => ({ version: deps.version, host: deps.host, dataDir: deps.dataDir, platform: process.platform }),
  };
  return { handlers };
}
