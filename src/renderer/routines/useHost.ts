// Which host serves this page: the desktop app or the browser host.
import { useEffect, useState } from 'react';
import { call, useApi } from '../api/apiContext';

export function useHost(): 'electron' | 'browser' | null {
  const api = useApi();
  const [host, setHost] = useState<'electron' | 'browser' | null>(null);
  useEffect(() => {
    void call(api, 'app:info', {}).then(
      (info) => setHost(info.host),
      () => {},
    );
  }, [api]);
  return host;
}
