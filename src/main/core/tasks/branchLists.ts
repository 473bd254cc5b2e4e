// Each branch of the message tree has its own task list: the list as it stood at that
// point in the branch. The shown branch's list is the conversation's open list, so the
// header, the task tools and the `<taskList>` block need nothing of their own. A branch
// that stops being shown takes its list along: the list is parked on the branch's first
// message (closed while parked, migration 16) and opened again when that version is shown.
// A new branch (an edit, a regenerated reply) starts with the list as it stood when the
// message it answers was stored: a snapshot taken whenever a user message is stored.
import { z } from 'zod';
import { Task, type TaskList } from '../../../shared/tasks';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import type { TaskService, Who } from './taskService';
import type { DraftTask } from './taskTypes';

/** Lists a branch starts with are written under this actor (task_events), not the user's or the model's. */
export const BRANCH: Who = { actor: 'branch', owner: 'main', claims: false };

/** What a snapshot keeps of each task: the fields a new branch's list is written from. */
const SnapshotTask = Task.pick({
  id: true,
  title: true,
  description: true,
  activeForm: true,
  status: true,
  owner: true,
  blockedBy: true,
  handedBack: true,
});
const Snapshot = z.array(SnapshotTask);

const snapshotOf = (list: TaskList) =>
  list.tasks.map(({ id, title, description, activeForm, status, owner, blockedBy, handedBack }) => ({
    id,
    title,
    description,
    activeForm,
    status,
    owner,
    blockedBy,
    handedBack: handedBack ?? null,
  }));

export interface BranchListDeps {
  db: Db;
  bus: EventBus;
  tasks: Pick<TaskService, 'get' | 'change' | 'store'>;
  now?: () => number;
}

export function createBranchLists(deps: BranchListDeps) {
  const { db, bus, tasks } = deps;
  const now = deps.now ?? Date.now;
  const park = db.prepare<[number, number, number]>('UPDATE task_lists SET closed_at = ?, parked_on = ? WHERE id = ?');
  const release = db.prepare<[number]>('UPDATE task_lists SET parked_on = NULL WHERE parked_on = ?');
  const parkedOn = db.prepare<[number], { id: number }>('SELECT id FROM task_lists WHERE parked_on = ?');
  const unpark = db.prepare<[number]>('UPDATE task_lists SET closed_at = NULL, parked_on = NULL WHERE id = ?');
  const discard = db.prepare<[number, number]>(
    'UPDATE task_lists SET closed_at = ? WHERE id = ? AND closed_at IS NULL',
  );
  const readSnapshot = db.prepare<[number], { tasks: string }>('SELECT tasks FROM task_snapshots WHERE message_id = ?');
  const writeSnapshot = db.prepare<[number, string]>(
    'INSERT OR IGNORE INTO task_snapshots (message_id, tasks) VALUES (?, ?)',
  );

  /** The list as it stood when message `messageId` was stored, or null (none was open, or an older version stored it). */
  function snapshotAt(messageId: number): DraftTask[] | null {
    const row = readSnapshot.get(messageId);
    if (!row) return null;
    const parsed = Snapshot.safeParse(JSON.parse(row.tasks));
    if (!parsed.success || parsed.data.length === 0) return null;
    // A worker that ran a task then does not run on the new branch: its task comes back to the main agent.
    return parsed.data.map((task) => ({
      ...task,
      handedBack:
        task.status === 'in_progress' && task.owner !== 'main'
          ? (task.handedBack ?? 'stopped')
          : (task.handedBack ?? null),
      rowId: null,
      lastMessageId: null,
    }));
  }

  return {
    /** Called for every user message stored: keeps the open list as it stands now for an edit of that message. */
    snapshot(conversationId: string, messageId: number): void {
      const list = tasks.get(conversationId);
      if (list && list.tasks.length) writeSnapshot.run(messageId, JSON.stringify(snapshotOf(list)));
    },

    /** The branch from `versionId` on is no longer shown: its open list goes with it. Inside the caller's transaction. */
    leave(conversationId: string, versionId: number): void {
      // One list per version: one left from a branch that was shown again some other way is just closed.
      release.run(versionId);
      const open = tasks.store.openList(conversationId);
      if (open) park.run(now(), versionId, open.id);
    },

    /** The branch from `versionId` on is shown again: its list (if it had one) is the open list. Inside the caller's transaction, after `leave`. */
    enter(conversationId: string, versionId: number): void {
      const parked = parkedOn.get(versionId);
      if (!parked) return;
      const open = tasks.store.openList(conversationId);
      if (open) discard.run(now(), open.id);
      unpark.run(parked.id);
    },

    /**
     * A new branch after `asOf` (the edited message, or the message a regenerated reply
     * answers) starts with the list as it stood when `asOf` was stored. Inside the caller's
     * transaction, after `leave`.
     */
    start(conversationId: string, asOf: number, placeAt: number | null): void {
      const snapshot = snapshotAt(asOf);
      if (!snapshot) return;
      const started = tasks.change(
        conversationId,
        BRANCH,
        (state) => ({ ok: true, value: { tasks: snapshot, startNew: state.list !== null, value: null } }),
        {
          messageId: placeAt ?? undefined,
        },
      );
      if (!started.ok) throw new Error(started.error);
    },

    /** Pushes the shown branch's list after a switch (the header and the sidebar badge follow it). */
    announce(conversationId: string): void {
      bus.emit('tasks:changed', { conversationId, list: tasks.get(conversationId) });
    },
  };
}

export type BranchLists = ReturnType<typeof createBranchLists>;
