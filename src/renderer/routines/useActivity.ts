// The Activity inbox as main reports it: the events (newest first) and the unread count,
// followed live.
import { useCallback, useEffect, useState } from 'react';
import type { ActivityList } from '../../shared/routinesContract';
import { call, useApi, useEvent } from '../api/apiContext';

export function useActivity(): { list: ActivityList | null; markRead: (id: number | null) => Promise<void> } {
  const api = useApi();
  const [list, setList] = useState<ActivityList | null>(null);
  const reload = useCallback(() => void call(api, 'activity:list', {}).then(setList, () => {}), [api]);
  useEffect(reload, [reload]);
  useEvent('activity:added', reload, [reload]);
  useEvent('activity:read', reload, [reload]);
  const markRead = useCallback(
    async (id: number | null) => {
      const { unread } = await call(api, 'activity:markRead', { id });
      setList((current) =>
        current
          ? { unread, events: current.events.map((e) => (id === null || e.id === id ? { ...e, read: true } : e)) }
          : current,
      );
    },
    [api],
  );
  return { list, markRead };
}

/** Only the unread count (the sidebar's badge). */
export function useUnread(): number {
  const api = useApi();
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    void call(api, 'activity:list', { limit: 1 }).then(
      (l) => setUnread(l.unread),
      () => {},
    );
  }, [api]);
  useEvent('activity:added', (e) => setUnread(e.unread), []);
  useEvent('activity:read', (e) => setUnread(e.unread), []);
  return unread;
}
