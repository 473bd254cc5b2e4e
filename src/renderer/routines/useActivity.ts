// The Activity inbox as main reports it: the events (newest first) and the unread count,
// followed live.
import { useCallback } from 'react';
import type { ActivityList } from '../../shared/routinesContract';
import { call, useApi } from '../api/apiContext';
import { queryCacheOf, useQuery, type Query } from '../query/useQuery';

/** Its events say that the inbox changed and its unread count, not the list: the list is read again. */
const activityList: Query<ActivityList> = {
  key: 'activity:list {}',
  load: (api) => call(api, 'activity:list', {}),
  follow: (api, control) => {
    const off = [api.on('activity:added', () => control.reload()), api.on('activity:read', () => control.reload())];
    return () => off.forEach((unsubscribe) => unsubscribe());
  },
};

export function useActivity(): { list: ActivityList | null; markRead: (id: number | null) => Promise<void> } {
  const api = useApi();
  const [list] = useQuery(activityList, null);
  const markRead = useCallback(
    async (id: number | null) => {
      const { unread } = await call(api, 'activity:markRead', { id });
      const cache = queryCacheOf(api);
      const current = cache.peek<ActivityList>(activityList.key);
      if (current) {
        cache.set(activityList.key, {
          unread,
          events: current.events.map((e) => (id === null || e.id === id ? { ...e, read: true } : e)),
        });
      }
    },
    [api],
  );
  return { list, markRead };
}

const unreadCount: Query<number> = {
  key: 'activity unread count',
  load: (api) => call(api, 'activity:list', { limit: 1 }).then((l) => l.unread),
  follow: (api, control) => {
    const off = [
      api.on('activity:added', (e) => control.set(e.unread)),
      api.on('activity:read', (e) => control.set(e.unread)),
    ];
    return () => off.forEach((unsubscribe) => unsubscribe());
  },
};

/** Only the unread count (the sidebar's badge). */
export function useUnread(): number {
  const [unread] = useQuery(unreadCount, 0);
  return unread;
}
