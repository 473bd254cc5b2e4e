// The Activity inbox: what happened while the user looked away. Routine runs add their
// events themselves; any other conversation whose agent worked while it was not the one
// on screen adds one when it finishes, fails, or starts waiting for the user.
import type { DisposableStore } from '../../../shared/event';
import type { ActivityEvent, ActivityKind, ActivitySettings } from '../../../shared/routinesContract';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import { createActivityStore } from './activityStore';
import type { RunEnd } from './scheduler';
import type { SettleWatcher } from './settleWatcher';
import type { HandlersFor } from '../../../shared/contract';
import type { activityCalls } from '../../../shared/routinesContract';

export interface ActivityDeps {
  db: Db;
  bus: EventBus;
  now: () => number;
  watcher: SettleWatcher;
  /** The routines module's store: Activity's subscriptions go with it. */
  disposables: DisposableStore;
  /** The conversation's title, or null once it is gone. */
  title(conversationId: string): string | null;
  /** Whether a routine run follows this conversation (it writes its own events). */
  isRun(conversationId: string): boolean;
  running(conversationId: string): boolean;
}

const NOTIFY: Record<ActivityKind, keyof ActivitySettings | null> = {
  finished: 'notifyFinished',
  needs_you: 'notifyNeedsYou',
  failed: 'notifyFailed',
  missed: null,
  skipped: null,
  stopped: null,
};

/** A run's or conversation's end as an Activity kind; a Stop by the user is not news. */
export function kindOfEnd(end: RunEnd): ActivityKind {
  if (end.status === 'completed') return 'finished';
  if (end.status === 'waiting') return 'needs_you';
  if (end.status === 'failed') return 'failed';
  return 'stopped';
}

export function createActivity(deps: ActivityDeps) {
  const { bus, now, watcher } = deps;
  const store = createActivityStore(deps.db);
  /** The conversation on screen (null: none, or the window is hidden). */
  let focused: string | null = null;
  /** What each conversation last told, so a wait seen again (another event while it waits) is told once. */
  const told = new Map<string, string>();

  function add(event: Omit<ActivityEvent, 'id' | 'read' | 'at'>): ActivityEvent {
    const stored = store.add({ ...event, at: now() });
    const setting = NOTIFY[stored.kind];
    const notify = setting !== null && store.settings()[setting];
    bus.emit('activity:added', { event: stored, unread: store.unread(), notify });
    return stored;
  }

  /** A conversation the user is not looking at that works: followed until it comes to rest. */
  function followInBackground(conversationId: string): void {
    if (conversationId === focused || deps.isRun(conversationId) || watcher.watching(conversationId)) return;
    if (!deps.running(conversationId)) return;
    watcher.watch(conversationId, (end) => {
      const title = deps.title(conversationId);
      const kind = kindOfEnd(end);
      const detail = end.detail ?? '';
      // Seen on screen when it came to rest, deleted, or stopped by the user: nothing to tell.
      if (!title || conversationId === focused || kind === 'stopped') return;
      if (told.get(conversationId) === `${kind}:${detail}`) return;
      told.set(conversationId, `${kind}:${detail}`);
      add({ kind, conversationId, routineId: null, title, detail });
    });
  }
  watcher.onMoved(followInBackground, deps.disposables);
  bus.on(
    'messages:changed',
    ({ conversationId, message }) => {
      if (message.role === 'user') told.delete(conversationId);
    },
    deps.disposables,
  );

  const handlers: HandlersFor<typeof activityCalls> = {
    'activity:list': ({ limit }) => ({ events: store.newest(limit), unread: store.unread() }),
    'activity:markRead': ({ id }) => {
      store.markRead(id);
      const unread = store.unread();
      bus.emit('activity:read', { unread });
      return { unread };
    },
    'activity:focus': ({ conversationId }) => {
      const before = focused;
      focused = conversationId;
      // Left while its agent works: from now on it is in the background.
      if (before && before !== conversationId) followInBackground(before);
      // Brought on screen: it is no longer in the background.
      if (conversationId && watcher.watching(conversationId) && !deps.isRun(conversationId)) {
        watcher.unwatch(conversationId);
      }
      return {};
    },
    'activity:getSettings': () => store.settings(),
    'activity:setSettings': ({ settings }) => {
      store.setSettings(settings);
      const next = store.settings();
      bus.emit('activity:settings', next);
      return next;
    },
  };

  return {
    handlers,
    add,
    /** A run's own event was written: the same wait seen again in the background is not told twice. */
    told(conversationId: string, kind: ActivityKind, detail: string): void {
      told.set(conversationId, `${kind}:${detail}`);
    },
    settings: () => store.settings(),
    all: () => store.all(),
  };
}

export type Activity = ReturnType<typeof createActivity>;
