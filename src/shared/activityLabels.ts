// What each kind of Activity event is called, in the list and in notifications.
import type { ActivityKind } from './routinesContract';

export const ACTIVITY_LABELS: Record<ActivityKind, string> = {
  finished: 'finished',
  needs_you: 'needs you',
  failed: 'failed',
  missed: 'missed',
  skipped: 'skipped',
  stopped: 'stopped',
};
