// Tells main which conversation is on screen (the others are in the background), and in
// a browser shows the page's notifications for Activity events that Settings →
// Notifications asks for. The desktop app's notifications come from the Electron adapter.
import { useEffect } from 'react';
import { call, useApi, useEvent } from '../api/apiContext';
import { ACTIVITY_LABELS } from '../../shared/activityLabels';
import { useStableHandler } from '../common/useLatest';
import { useNavigation } from '../navigation/navigation';
import { useHost } from './useHost';

export function ActivityNotifier() {
  const api = useApi();
  const host = useHost();
  const nav = useNavigation();
  // Under Settings the conversation is not on screen.
  const conversationId = nav.settingsOpen ? null : nav.conversationId;
  const open = useStableHandler((id: string) => nav.openConversation(id));

  useEffect(() => {
    const report = () =>
      void call(api, 'activity:focus', {
        conversationId: document.visibilityState === 'visible' ? conversationId : null,
      }).catch(() => {});
    report();
    document.addEventListener('visibilitychange', report);
    return () => document.removeEventListener('visibilitychange', report);
  }, [api, conversationId]);

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
