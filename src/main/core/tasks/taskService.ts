// Every change to a task list goes through `change`: read the open list, let an
// operation propose the new one, check it against the rules, write the difference,
// append task_events — all in one SQLite transaction, so a failed check or a failing
// write leaves nothing behind — and then push `tasks:changed`.
import type { TaskList } from '../../../shared/tasks';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import { checkChange, isFinished, type Checked } from './taskRules';
import { createTaskStore } from './taskStore';
import type { DraftTask, ListInfo, ListRows } from './taskTypes';
import { speaksForUser, type Who } from './taskActors';
import { writeDiff } from './taskDiff';
import { draftFrom, taskListFrom } from './taskRows';
import { describeKept, mergeModelChange, parseEdits, recordUserEdits, type UserEdit } from './taskMerge';

export { agentWho, EXTERNAL_PREFIX, externalWho, speaksForUser, USER, type Who } from './taskActors';

/** Why an open list was closed; kept in its `closed` event. */
export type CloseReason = 'clear-tasks' | 'clear-command' | 'edit' | 'superseded' | 'emptied';

export interface OpState {
  list: ListInfo | null;
  tasks: DraftTask[];
  /** The list is finished and a user message came after its last change: a new turn. */
  finishedEarlier: boolean;
}

export interface OpResult<T> {
  /** The list as it should be, in display order. */
  tasks: DraftTask[];
  /** Close the open list (kept in history) and put `tasks` in a new one. */
  startNew?: boolean;
  value: T;
}

export type Op<T> = (state: OpState) => Checked<OpResult<T>>;

export interface Changed<T> {
  list: TaskList | null;
  before: DraftTask[];
  after: DraftTask[];
  startedNew: boolean;
  value: T;
  /** What the merge kept of the user's edits, as the tool result says it (see taskMerge.ts); null when nothing. */
  kept: string | null;
}

export interface ChangeOptions {
  /**
   * A model's tool call: the user's unacknowledged edits win over it (taskMerge.ts).
   * `full` when the call sent the whole list, `partial` for a granular call.
   */
  userEditsWin?: 'full' | 'partial';
  /** Writes that belong to this change (a worker's result): run inside its transaction. */
  alongside?: () => void;
  /** The conversation's reply that made the change, when the caller knows it (a tool call). */
  messageId?: number;
}

/** A hand-back lasts while its task stays in progress under the same owner. */
function settleHandBacks(before: readonly DraftTask[], after: DraftTask[]): DraftTask[] {
  if (!after.some((task) => task.handedBack)) return after;
  const oldById = new Map(before.map((t) => [t.id, t]));
  return after.map((task) => {
    if (!task.handedBack) return task;
    const old = oldById.get(task.id);
    const stays =
      task.status === 'in_progress' &&
      (!old || (old.status === task.status && old.owner === task.owner) || !old.handedBack);
    return stays ? task : { ...task, handedBack: null };
  });
}

/** Thrown inside the transaction so better-sqlite3 rolls it back; never leaves `change`. */
class Rejected extends Error {}

export interface TaskServiceDeps {
  db: Db;
  bus: EventBus;
  now?: () => number;
}

/** What a change's transaction returns to `change`. */
interface Outcome<T> {
  before: DraftTask[];
  after: DraftTask[];
  startedNew: boolean;
  value: T;
  changed: boolean;
  kept: UserEdit[];
  list: TaskList | null;
}

export function createTaskService(deps: TaskServiceDeps) {
  const { db, bus } = deps;
  const now = deps.now ?? Date.now;
  const store = createTaskStore(db);

  function finishedEarlier(conversationId: string, tasks: DraftTask[]): boolean {
    if (!isFinished(tasks)) return false;
    const lastUser = store.latestMessageId(conversationId, 'user');
    if (lastUser === null) return false;
    const lastChange = Math.max(0, ...tasks.map((t) => t.lastMessageId ?? 0));
    return lastUser > lastChange;
  }

  function closeInside(list: ListInfo, who: Who, reason: CloseReason, at: number) {
    if (store.closeList(list.id, at)) {
      store.appendEvent({ listId: list.id, taskId: null, at, actor: who.actor, kind: 'closed', after: { reason } });
    }
  }

  /** The sidebar's badge follows this event too (shared/taskProgress.ts `taskBadge`). */
  function notify(conversationId: string, list: TaskList | null) {
    bus.emit('tasks:changed', { conversationId, list });
  }

  function messageFor(conversationId: string, who: Who, known?: number): number | null {
    // The model's change belongs to the reply that made the tool call; the user's to
    // whatever the conversation showed last.
    if (known !== undefined) return known;
    if (speaksForUser(who.actor)) return store.latestMessageId(conversationId);
    return store.latestMessageId(conversationId, 'assistant') ?? store.latestMessageId(conversationId);
  }

  /** The body of `change`, one transaction: built once, since wrapping a function per call costs more than the work. */
  function changeInside<T>(conversationId: string, who: Who, op: Op<T>, options: ChangeOptions): Outcome<T> {
    const at = now();
    const list = store.openList(conversationId);
    // Read once: the writes below keep `rows` current, and the list after the change is built from it.
    let rows: ListRows = list ? store.rows(list.id) : { rows: [], blockers: new Map() };
    const current = list ? draftFrom(rows) : [];
    const proposed = op({
      list,
      tasks: current,
      finishedEarlier: list !== null && finishedEarlier(conversationId, current),
    });
    if (!proposed.ok) throw new Rejected(proposed.error);
    const startNew = list !== null && proposed.value.startNew === true;
    const before = startNew ? [] : current;
    const stored = list && !startNew ? parseEdits(store.userEdits(list.id)) : [];
    let after = proposed.value.tasks;
    let edits: UserEdit[] | null = null;
    let kept: UserEdit[] = [];
    if (options.userEditsWin && stored.length) {
      const merged = mergeModelChange(before, after, stored, { complete: options.userEditsWin === 'full' });
      ({ tasks: after, kept, edits } = merged);
    } else if (speaksForUser(who.actor)) {
      edits = recordUserEdits(stored, before, after);
    }
    after = settleHandBacks(before, after);
    const errors = checkChange(before, after);
    if (errors.length) throw new Rejected(errors.join(' '));

    let changed = false;
    let open: ListInfo | null = list;
    if (list && startNew) {
      closeInside(list, who, 'superseded', at);
      open = null;
      changed = true;
    }
    if (after.length > 0) {
      if (open === null) {
        open = { id: store.createList(conversationId, at), conversationId, createdAt: at, closedAt: null };
        rows = { rows: [], blockers: new Map() };
      }
      changed =
        writeDiff(store, open.id, rows, before, after, who, at, messageFor(conversationId, who, options.messageId)) ||
        changed;
    } else if (open !== null && list) {
      // A list with no tasks left is over: close it rather than show an empty header.
      writeDiff(store, open.id, rows, before, after, who, at, null);
      closeInside(list, who, 'emptied', at);
      open = null;
      changed = true;
    }
    const listId = open?.id ?? null;
    if (edits !== null && listId !== null) store.setUserEdits(listId, edits.length ? JSON.stringify(edits) : null);
    options.alongside?.();
    return {
      before,
      after,
      startedNew: startNew,
      value: proposed.value.value,
      changed,
      kept,
      list: open && taskListFrom(open, rows),
    };
  }
  const changeTransaction = db.transaction(changeInside) as unknown as { immediate: typeof changeInside };

  return {
    store,

    /** The conversation's open list, or null. */
    get(conversationId: string): TaskList | null {
      const list = store.openList(conversationId);
      if (!list) return null;
      return taskListFrom(list, store.rows(list.id));
    },

    /**
     * Applies an operation to the open list as one transaction. On any error (a rule,
     * a constraint, a bug) nothing is written and the error comes back as a value.
     */
    change<T>(conversationId: string, who: Who, op: Op<T>, options: ChangeOptions = {}): Checked<Changed<T>> {
      let outcome: Outcome<T>;
      try {
        outcome = changeTransaction.immediate(conversationId, who, op, options);
      } catch (error) {
        if (error instanceof Rejected) return { ok: false, error: error.message };
        console.error('[stepwise] task change failed:', error);
        return {
          ok: false,
          error: `The task list could not be saved (${error instanceof Error ? error.message : String(error)}). Nothing was changed.`,
        };
      }
      const { list } = outcome;
      if (outcome.changed) notify(conversationId, list);
      return {
        ok: true,
        value: {
          list,
          before: outcome.before,
          after: outcome.after,
          startedNew: outcome.startedNew,
          value: outcome.value,
          kept: describeKept(outcome.kept),
        },
      };
    },

    /** Closes the open list (kept in history). Returns false when there was none. */
    close(conversationId: string, who: Who, reason: CloseReason): boolean {
      const closed = db.transaction(() => {
        const list = store.openList(conversationId);
        if (!list) return false;
        closeInside(list, who, reason, now());
        return true;
      })();
      if (closed) notify(conversationId, null);
      return closed;
    },

    history(conversationId: string): TaskList[] {
      return store.history(conversationId);
    },

    badges(conversationIds: string[]) {
      return store.badges(conversationIds);
    },
  };
}

export type TaskService = ReturnType<typeof createTaskService>;
