// What the page shows in Settings → About and uses to tell the hosts apart.
import type { HandlersFor } from '../../../shared/contract';
import type { appCalls } from '../../../shared/appContract';

export interface AppInfoDeps {
  version: string;
  host: 'electron' | 'browser';
  dataDir: string;
}

export function createAppInfo(deps: AppInfoDeps) {
  const handlers: HandlersFor<typeof appCalls> = {
    'app:info': () => ({ version: deps.version, host: deps.host, dataDir: deps.dataDir, platform: process.platform }),
  };
  return { handlers };
}
