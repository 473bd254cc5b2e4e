// Starts one run: a new conversation "‹routine name› · ‹date time›" in the routine's
// folder, with its model, review mode and Autopilot, started with its instructions; then
// follows it until it comes to rest.
import { randomUUID } from 'node:crypto';
import type { ConversationSummary, Message } from '../../../shared/domain';
import type { Folder } from '../../../shared/folders';
import type { ModelRef } from '../../../shared/providers';
import type { PlanReviewModeName } from '../../../shared/planModes';
import type { Db } from '../db/openDatabase';
import type { EventBus } from '../ipc/eventBus';
import type { StoredRoutine } from './routineStore';
import type { RunEnd, SchedulerDeps } from './scheduler';
import type { SettleWatcher } from './settleWatcher';

export const MODEL_GONE = 'The model of this routine is no longer set up';

export interface LauncherDeps {
  db: Db;
  bus: EventBus;
  now: () => number;
  watcher: SettleWatcher;
  conversations: {
    create(title: string, options: { id: string; autopilot: boolean }): unknown;
    setModel(id: string, model: ModelRef): unknown;
    summary(id: string): ConversationSummary | undefined;
  };
  folders: { move(conversationId: string, folderId: string | null): boolean; list(): Folder[] };
  setPlanReview(conversationId: string, mode: PlanReviewModeName): void;
  chat: { send(conversationId: string, content: string, origin: Message['origin']): Message };
  /** The ids of the provider profiles set up now. */
  profileIds(): string[];
}

const two = (n: number) => String(n).padStart(2, '0');

/** "Daily digest · 2026-03-02 09:00" in local time. */
export function runTitle(name: string, at: number): string {
  const d = new Date(at);
  const date = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return `${name} · ${date} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export function createRunLauncher(deps: LauncherDeps): SchedulerDeps['launch'] {
  const { bus } = deps;
  return (routine: StoredRoutine) => {
    if (routine.model && !deps.profileIds().includes(routine.model.profileId)) {
      return { conversationId: null, ended: Promise.resolve<RunEnd>({ status: 'failed', detail: MODEL_GONE }) };
    }
    const id = randomUUID();
    let filed = false;
    deps.db.transaction(() => {
      deps.conversations.create(runTitle(routine.name, deps.now()), { id, autopilot: routine.autopilot });
      if (routine.model) deps.conversations.setModel(id, routine.model);
      deps.setPlanReview(id, routine.planReview);
      if (routine.folderId) {
        try {
          filed = deps.folders.move(id, routine.folderId);
        } catch {
          // The folder was deleted: the run is filed in no folder.
        }
      }
    })();
    bus.emit('conversations:changed', { id, kind: 'created', conversation: deps.conversations.summary(id) ?? null });
    if (filed) bus.emit('folders:changed', { folders: deps.folders.list() });
    const ended = new Promise<RunEnd>((resolve) => deps.watcher.watch(id, resolve));
    try {
      deps.chat.send(id, routine.instructions, 'user');
    } catch (error) {
      deps.watcher.unwatch(id);
      const detail = error instanceof Error ? error.message : String(error);
      return { conversationId: id, ended: Promise.resolve<RunEnd>({ status: 'failed', detail }) };
    }
    return { conversationId: id, ended };
  };
}
