// Changes to an approved plan (plan review, "After approval"). A change to the tasks
// themselves (added, deleted, renamed, reordered; never a status) is the difference
// between the open list and its last approved revision, so it needs no bookkeeping and
// survives restarts. "Before tools that change things": the change is taken at once as a
// new revision, with a "Plan changed" note. "Every plan": it is held as an amendment;
// tools that act wait (planWaits.ts) until the difference is gone: approved, rejected, or
// undone by any other route.
import type { Plumbing } from '../../../shared/messageKinds';
import type { Message } from '../../../shared/domain';
import type { PlanRevision, PlanTask } from '../../../shared/planContract';
import { planAnswerNote, planChangedPayload, planDiff, sameTasks } from '../../../shared/planText';
import type { TaskList } from '../../../shared/tasks';
import type { Db } from '../db/openDatabase';
import type { Checked } from '../tasks/taskRules';
import type { DraftTask } from '../tasks/taskTypes';
import type { OpResult, OpState, TaskService } from '../tasks/taskService';
import { USER } from '../tasks/taskService';
import type { PlanStore } from './planStore';

const NO_COMMENTS = { general: '', tasks: [] };

/** What plan review writes in the transcript: system notes. */
export interface PlanNotes {
  insert(message: {
    conversationId: string;
    role: 'system';
    content: string;
    origin: 'system';
    plumbing?: Plumbing;
  }): Message;
}

export interface AmendmentDeps {
  db: Db;
  store: PlanStore;
  now: () => number;
  tasks: Pick<TaskService, 'change'>;
  messages: PlanNotes;
  stored(message: Message): void;
}

/** The list as approved again: approved titles and order; tasks the model added go, deleted ones come back pending. */
function restoreOp(approved: readonly PlanTask[]) {
  return (state: OpState): Checked<OpResult<null>> => {
    const current = new Map(state.tasks.map((t) => [t.id, t]));
    const ids = new Set(approved.map((t) => t.id));
    const tasks: DraftTask[] = approved.map((a) => {
      const kept = current.get(a.id);
      if (kept) return { ...kept, title: a.title, blockedBy: kept.blockedBy.filter((id) => ids.has(id)) };
      return {
        rowId: null,
        id: a.id,
        title: a.title,
        description: '',
        activeForm: '',
        status: 'pending',
        owner: 'main',
        blockedBy: [],
        lastMessageId: null,
      };
    });
    return { ok: true, value: { tasks, value: null } };
  };
}

export function createAmendments(deps: AmendmentDeps) {
  function planOf(list: TaskList): PlanTask[] {
    return list.tasks.map((t) => ({ id: t.id, title: t.title }));
  }

  /** The list as a new approved revision and its note in the transcript, in one transaction. */
  function approveWithNote(
    conversationId: string,
    list: TaskList,
    note: (revision: number) => { content: string; plumbing?: Plumbing },
  ): void {
    const message = deps.db.transaction(() => {
      const revision = deps.store.addRevision(conversationId, list.id, {
        tasks: planOf(list),
        comments: NO_COMMENTS,
        approvedAt: deps.now(),
        createdAt: deps.now(),
      });
      return deps.messages.insert({ conversationId, role: 'system', origin: 'system', ...note(revision.revision) });
    })();
    deps.stored(message);
  }

  return {
    /** The change held for the user, or null. */
    held(list: TaskList | null, approved: PlanRevision | null): { before: PlanTask[]; after: PlanTask[] } | null {
      if (!list || !approved) return null;
      const after = planOf(list);
      return sameTasks(approved.tasks, after) ? null : { before: approved.tasks, after };
    },

    /** "Before tools that change things": the model's change becomes the approved plan, noted in the transcript. */
    accept(conversationId: string, list: TaskList, approved: PlanRevision): void {
      const after = planOf(list);
      const changes = planDiff(approved.tasks, after);
      if (!changes.length) return;
      approveWithNote(conversationId, list, (revision) => ({
        content: '',
        plumbing: planChangedPayload(revision, changes, approved.tasks, after),
      }));
    },

    /** A new approved revision and its line in the transcript, together. */
    approve(conversationId: string, list: TaskList, approved: PlanRevision): void {
      const changes = planDiff(approved.tasks, planOf(list));
      approveWithNote(conversationId, list, (revision) => ({
        content: planAnswerNote({ approved: true, revision }, changes),
      }));
    },

    /** The list goes back to the approved plan (as the user's edit, which wins over the model's next call). */
    reject(conversationId: string, list: TaskList, approved: PlanRevision): string | null {
      const changes = planDiff(approved.tasks, planOf(list));
      const result = deps.tasks.change(conversationId, USER, restoreOp(approved.tasks));
      if (!result.ok) return result.error;
      deps.stored(
        deps.messages.insert({
          conversationId,
          role: 'system',
          origin: 'system',
          content: planAnswerNote({ approved: false }, changes),
        }),
      );
      return null;
    },
  };
}

export type Amendments = ReturnType<typeof createAmendments>;
