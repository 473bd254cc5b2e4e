// Activity: one inbox for what happened while the user looked away (routine runs, and
// conversations that finished or started waiting in the background), newest first.
// Opening an event opens its conversation and marks the event read.
import type { ActivityEvent } from '../../shared/routinesContract';
import { ACTIVITY_LABELS } from '../../shared/activityLabels';
import { useGuard } from '../common/toasts';
import { relativeTime } from '../common/relativeTime';
import { useNavigation } from '../navigation/navigation';
import { useActivity } from './useActivity';
import './routines.css';

export function ActivityPage() {
  const { openConversation } = useNavigation();
  const { list, markRead } = useActivity();
  const guard = useGuard();
  const open = (event: ActivityEvent) =>
    void guard(async () => {
      if (!event.read) await markRead(event.id);
      if (event.conversationId) openConversation(event.conversationId);
    });
  return (
    <section className="routines-page" aria-label="Activity">
      <header className="routines-header">
        <h1>Activity</h1>
        <button
          type="button"
          className="ghost"
          disabled={!list || list.unread === 0}
          onClick={() => void guard(() => markRead(null))}
        >
          Mark all read
        </button>
      </header>
      {list && list.events.length === 0 && (
        <p className="routines-empty">
          Nothing yet. Runs of your routines and conversations that finish while you look away show here.
        </p>
      )}
      <ul className="activity-list" aria-label="Activity events">
        {list?.events.map((event) => (
          <li key={event.id} className={event.read ? 'activity-event' : 'activity-event unread'}>
            <button
              type="button"
              className="activity-open"
              aria-label={`${event.title}: ${ACTIVITY_LABELS[event.kind]}${event.read ? '' : ' (unread)'}`}
              onClick={() => open(event)}
            >
              <span className={`activity-kind kind-${event.kind}`}>{ACTIVITY_LABELS[event.kind]}</span>
              <span className="activity-title">{event.title}</span>
              {event.detail && <span className="activity-detail">{event.detail}</span>}
              <time className="activity-time" dateTime={new Date(event.at).toISOString()}>
                {relativeTime(event.at)}
              </time>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
