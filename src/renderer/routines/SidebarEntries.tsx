// The sidebar's "Routines" and "Activity" entries, under "Tasks". Activity shows how many
// of its events are unread.
import { useUnread } from './useActivity';
import './routines.css';

export function RoutineEntries(props: {
  current: 'routines' | 'activity' | null;
  onOpen: (page: 'routines' | 'activity') => void;
}) {
  const unread = useUnread();
  const entry = (page: 'routines' | 'activity') =>
    props.current === page ? 'ghost board-entry active' : 'ghost board-entry';
  return (
    <>
      <button
        type="button"
        className={entry('routines')}
        aria-current={props.current === 'routines' ? 'page' : undefined}
        title="Runs that happen on a schedule"
        onClick={() => props.onOpen('routines')}
      >
        <span aria-hidden="true">↻</span> Routines
      </button>
      <button
        type="button"
        className={entry('activity')}
        aria-current={props.current === 'activity' ? 'page' : undefined}
        title="What happened while you looked away"
        onClick={() => props.onOpen('activity')}
      >
        <span aria-hidden="true">◉</span> Activity
        {unread > 0 && (
          // The count is part of the name as it is seen: "Activity 1 unread".
          <span className="activity-unread">
            {' '}
            {unread}
            <span className="sr-only"> unread</span>
          </span>
        )}
      </button>
    </>
  );
}
