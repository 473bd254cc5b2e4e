// SQL only: the Activity inbox (`activity_events`) and its settings (`activity_settings`).
import type { ActivityEvent, ActivityKind, ActivitySettings } from '../../../shared/routinesContract';
import type { Db } from '../db/openDatabase';
import type { Row } from '../db/tables';

type EventRow = Row<'activity_events'>;

const toEvent = (row: EventRow): ActivityEvent => ({
  id: row.id,
  kind: row.kind,
  conversationId: row.conversation_id,
  routineId: row.routine_id,
  title: row.title,
  detail: row.detail,
  at: row.at,
  read: row.read === 1,
});

export const DEFAULT_ACTIVITY_SETTINGS: ActivitySettings = {
  notifyFinished: true,
  notifyNeedsYou: true,
  notifyFailed: true,
  keepRunning: false,
};

export function createActivityStore(db: Db) {
  const insert = db.prepare<[ActivityKind, string | null, string | null, string, string, number]>(
    `INSERT INTO activity_events (kind, conversation_id, routine_id, title, detail, at) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[number], EventRow>('SELECT * FROM activity_events WHERE id = ?');
  const newest = db.prepare<[number], EventRow>('SELECT * FROM activity_events ORDER BY id DESC LIMIT ?');
  const unread = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM activity_events WHERE read = 0');
  const markOne = db.prepare<[number]>('UPDATE activity_events SET read = 1 WHERE id = ? AND read = 0');
  const markAll = db.prepare('UPDATE activity_events SET read = 1 WHERE read = 0');
  const settingRows = db.prepare<[], Row<'activity_settings'>>('SELECT * FROM activity_settings');
  const setSetting = db.prepare<[string, number]>(
    'INSERT INTO activity_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  );
  const all = db.prepare<[], EventRow>('SELECT * FROM activity_events ORDER BY id');

  return {
    add(event: Omit<ActivityEvent, 'id' | 'read'>): ActivityEvent {
      const id = Number(
        insert.run(event.kind, event.conversationId, event.routineId, event.title, event.detail, event.at)
          .lastInsertRowid,
      );
      return toEvent(byId.get(id)!);
    },
    newest: (limit: number): ActivityEvent[] => newest.all(limit).map(toEvent),
    all: (): ActivityEvent[] => all.all().map(toEvent),
    unread: (): number => unread.get()!.n,
    markRead(id: number | null): void {
      if (id === null) markAll.run();
      else markOne.run(id);
    },
    settings(): ActivitySettings {
      const stored = new Map(settingRows.all().map((r) => [r.key, r.value === 1]));
      const pick = (key: keyof ActivitySettings) => stored.get(key) ?? DEFAULT_ACTIVITY_SETTINGS[key];
      return {
        notifyFinished: pick('notifyFinished'),
        notifyNeedsYou: pick('notifyNeedsYou'),
        notifyFailed: pick('notifyFailed'),
        keepRunning: pick('keepRunning'),
      };
    },
    setSettings(patch: Partial<ActivitySettings>): void {
      db.transaction(() => {
        for (const [key, value] of Object.entries(patch)) {
          if (key in DEFAULT_ACTIVITY_SETTINGS && typeof value === 'boolean') setSetting.run(key, value ? 1 : 0);
        }
      })();
    },
  };
}

export type ActivityStore = ReturnType<typeof createActivityStore>;
