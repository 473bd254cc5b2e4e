// The task-share tools' writes. Each goes through the one task writer (taskService
// `change`) under the caller's own actor, so the rules, the single transaction and the
// `tasks:changed` push are exactly the header's; a failed rule leaves nothing written.
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import type { ConversationRepo } from '../conversations/conversationRepo';
import type { FolderRepo } from '../folders/folderRepo';
import { createOp, reorderOp, updateOp } from '../tasks/taskOps';
import type { Checked } from '../tasks/taskRules';
import { joinAnd, LIST_TASKS_MAX, normalizeTitle } from '../tasks/taskRules';
import { movedTasks } from '../tasks/movedTasks';
import { EXTERNAL_PREFIX, type Op, type TaskService, type Who } from '../tasks/taskService';
import type { DraftTask } from '../tasks/taskTypes';
import type { ShareReader } from './shareReader';
import { ConversationTitle } from '../../../shared/domain';
import { FolderName } from '../../../shared/folders';

export interface ShareWriterDeps {
  db: Db;
  bus: EventBus;
  tasks: TaskService;
  conversations: ConversationRepo;
  folders: FolderRepo;
  reader: ShareReader;
  /** The transcript's quiet line for each change (changeNotes.ts). */
  notes?: { note(conversationId: string, client: string, what: string): void };
}

const STATUS_WORDS: Record<string, string> = {
  pending: 'pending',
  in_progress: 'in progress',
  completed: 'completed',
  cancelled: 'cancelled',
};
/** Up to this many task ids are named in a reorder's transcript line. */
const NAMED_MAX = 12;
const clientOf = (who: Who) => who.actor.slice(EXTERNAL_PREFIX.length);

const fail = (error: string): Checked<never> => ({ ok: false, error });

export const unknownConversation = (id: string) =>
  `There is no conversation ${id} (it may have been deleted). Call list_task_lists for the current ids.`;

const NO_LIST =
  'This conversation has no open task list. add_task starts one, or create_task_list makes a new conversation with one.';

/** The list as the tool answers it, without the operation's own value. */
function strip<T extends { result: unknown }>(checked: Checked<T>): Checked<Omit<T, 'result'>> {
  if (!checked.ok) return checked;
  const { result: _result, ...rest } = checked.value;
  return { ok: true, value: rest };
}

/** Rolls the outer transaction of create_task_list back with the rule's message. */
class Refused extends Error {}

export function createShareWriter(deps: ShareWriterDeps) {
  const { tasks, conversations, folders, reader, bus } = deps;
  const note = (who: Who, conversationId: string, what: string) =>
    deps.notes?.note(conversationId, clientOf(who), what);

  function run<T>(who: Who, conversationId: string, op: Op<T>, needsList: boolean) {
    if (!reader.conversationOf(conversationId)) return fail(unknownConversation(conversationId));
    if (needsList && !tasks.get(conversationId)) return fail(NO_LIST);
    const result = tasks.change(conversationId, who, op);
    if (!result.ok) return result;
    return {
      ok: true as const,
      value: { ...reader.detail(conversationId, result.value.list)!, result: result.value.value },
    };
  }

  const createInside = deps.db.transaction((who: Who, title: string, folder: string | null, titles: string[]) => {
    const conversation = conversations.create(title);
    let newFolder = false;
    if (folder !== null) {
      const before = folders.list().length;
      const target = folders.ensure(folder);
      newFolder = folders.list().length !== before;
      folders.move(conversation.id, target.id);
    }
    const op: Op<null> = () => {
      let list: DraftTask[] = [];
      for (const taskTitle of titles) {
        const added = createOp({ title: taskTitle }, who, { newListWhenFinished: false })({
          list: null,
          tasks: list,
          finishedEarlier: false,
        });
        if (!added.ok) return added;
        list = added.value.tasks;
      }
      return { ok: true, value: { tasks: list, value: null } };
    };
    const result = tasks.change(conversation.id, who, op);
    if (!result.ok) throw new Refused(result.error);
    return { conversationId: conversation.id, list: result.value.list, newFolder };
  });

  return {
    updateTask(who: Who, conversationId: string, taskId: number, patch: { status?: string; title?: string }) {
      if (patch.status === undefined && patch.title === undefined)
        return fail('Give a status, a title or both to change.');
      const updated = run(
        who,
        conversationId,
        updateOp({ taskId, status: patch.status, title: patch.title }, who),
        true,
      );
      if (updated.ok) {
        const { changed } = updated.value.result;
        const task = updated.value.tasks.find((t) => t.id === taskId);
        const said = [
          changed.includes('status') && task
            ? `marked task ${taskId} ${task.status === 'blocked' ? 'pending' : STATUS_WORDS[task.status]}`
            : '',
          changed.includes('title') && task ? `renamed task ${taskId} to "${task.title}"` : '',
        ].filter(Boolean);
        if (said.length) note(who, conversationId, said.join(' and '));
      }
      return strip(updated);
    },
    addTask(who: Who, conversationId: string, input: { title: string; description?: string; blockedBy?: number[] }) {
      const added = run(who, conversationId, createOp(input, who, { newListWhenFinished: false }), false);
      if (!added.ok) return added;
      const { result, ...list } = added.value;
      note(
        who,
        conversationId,
        `added task ${result.id} "${list.tasks.find((t) => t.id === result.id)?.title ?? input.title}"`,
      );
      return { ok: true as const, value: { added: result.id, ...list } };
    },
    reorderTasks(who: Who, conversationId: string, order: number[]) {
      const before = tasks.get(conversationId)?.tasks.map((t) => t.id) ?? [];
      const reordered = run(who, conversationId, reorderOp(order), true);
      // An order that is the current one changes nothing, so it gets no line.
      const moved = reordered.ok ? [...movedTasks(before, order)] : [];
      if (moved.length) {
        // A transcript line, not a dump: long lists get the count only.
        const which =
          moved.length === 1
            ? `task ${moved[0]}`
            : moved.length <= NAMED_MAX
              ? `tasks ${joinAnd(moved.map(String))}`
              : `${moved.length} tasks`;
        note(
          who,
          conversationId,
          order.length <= NAMED_MAX ? `moved ${which} (the order is now ${order.join(', ')})` : `moved ${which}`,
        );
      }
      return strip(reordered);
    },
    /** A new conversation titled by the caller, holding the list, filed in `folder` (made if missing). */
    createTaskList(who: Who, input: { title: string; folder?: string; tasks: string[] }) {
      const title = ConversationTitle.safeParse(input.title);
      if (!title.success) return fail(`title: ${title.error.issues[0].message}`);
      const folder = input.folder === undefined ? null : FolderName.safeParse(input.folder);
      if (folder && !folder.success) return fail(`folder: ${folder.error.issues[0].message}`);
      if (input.tasks.length === 0) return fail('tasks: give at least one task title.');
      if (input.tasks.length > LIST_TASKS_MAX) return fail(`tasks: a list holds at most ${LIST_TASKS_MAX} tasks.`);
      for (const [index, raw] of input.tasks.entries()) {
        const checked = normalizeTitle(raw);
        if (!checked.ok) return fail(`tasks[${index}]: ${checked.error}`);
      }
      let made: { conversationId: string; list: unknown; newFolder: boolean };
      try {
        made = createInside(who, title.data, folder ? folder.data! : null, input.tasks);
      } catch (error) {
        if (error instanceof Refused) return fail(error.message);
        throw error;
      }
      if (made.newFolder) bus.emit('folders:changed', { folders: folders.list() });
      bus.emit('conversations:changed', {
        id: made.conversationId,
        kind: 'created',
        conversation: conversations.summary(made.conversationId) ?? null,
      });
      note(
        who,
        made.conversationId,
        `created this task list with ${input.tasks.length} ${input.tasks.length === 1 ? 'task' : 'tasks'}`,
      );
      return { ok: true as const, value: reader.list(made.conversationId)! };
    },
  };
}

export type ShareWriter = ReturnType<typeof createShareWriter>;
