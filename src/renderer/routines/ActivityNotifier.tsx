// Tells main which conversation is on screen (the others are in the background), and in
// a browser shows the page's notifications for Activity events that Settings →
// Notifications asks for. The desktop app's notifications come from the Electron adapter.
import { useEffect } from 'react';
import { call, useApi, useEvent } from '../api/apiContext';
import { ACTIVITY_LABELS } from '../../shared/activityLabels';
import { useStableHandler } from '../common/useLatest';
import { useHost } from './useHost';

export function ActivityNotifier(props: { conversationId: string | null; onOpen: (conversationId: string) => void }) {
  const api = useApi();
  const host = useHost();
  const open = useStableHandler(props.onOpen);

  useEffect(() => {
    const report = () =>
      void call(api, 'activity:focus', {
        conversationId: document.visibilityState === 'visible' ? props.conversationId : null,
      }).catch(() => {});
    report();
    document.addEventListener('visibilitychange', report);
    return () => document.removeEventListener('visibilitychange', report);
  }, [api, props.conversationId]);

  useEvent('activity:open', ({ conversationId }) => open(conversationId), [open]);
  useEvent(
    'activity:added',
    ({ event, notify }) => {
      if (!notify || host !== 'browser' || !('Notification' in window) || Notification.permission !== 'granted') return;
      const body = event.detail ? `${ACTIVITY_LABELS[event.kind]}: ${event.detail}` : ACTIVITY_LABELS[event.kind];
      const shown = new Notification(event.title, { body, tag: `stepwise-activity-${event.id}` });
      shown.onclick = () => {
        window.focus();
        shown.close();
        void call(api, 'activity:markRead', { id: event.id }).catch(() => {});
        if (event.conversationId) open(event.conversationId);
      };
    },
    [host, api, open],
  );
  return null;
}
