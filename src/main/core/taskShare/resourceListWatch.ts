// When the shared resources (the conversations with an open task list) gain or lose one,
// from the core's events: a list made (create_task_list, the model's first task, an
// import) or gone (its conversation deleted, its last task removed). Coalesced, so a
// folder of 100 conversations deleted at once is one resources/list_changed.
import type { EventPayload } from '../../../shared/ipc';

export function createResourceListWatch(onChange: () => void) {
  /** Conversations seen with tasks in their open list (since the app started). */
  const listed = new Set<string>();
  let pending: NodeJS.Timeout | null = null;
  const changed = () => {
    pending ??= setTimeout(() => {
      pending = null;
      onChange();
    }, 20);
  };

  return {
    tasksChanged({ conversationId, list }: Pick<EventPayload<'tasks:changed'>, 'conversationId' | 'list'>): void {
      const has = list !== null && list.tasks.length > 0;
      if (has === listed.has(conversationId)) return;
      if (has) listed.add(conversationId);
      else listed.delete(conversationId);
      changed();
    },
    conversationsChanged({ id, kind }: Pick<EventPayload<'conversations:changed'>, 'id' | 'kind'>): void {
      if (kind !== 'deleted') return;
      listed.delete(id);
      changed();
    },
    dispose(): void {
      if (pending) clearTimeout(pending);
      pending = null;
    },
  };
}
