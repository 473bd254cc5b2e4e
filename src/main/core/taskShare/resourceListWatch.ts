// When the shared resources (the conversations with an open task list) gain or lose one,
// from the core's events: a list made (create_task_list, the model's first task, an
// import) or gone (its conversation deleted, its last task removed). Coalesced, so a
// folder of 100 conversations deleted at once is one resources/list_changed.
import { z } from 'zod';

const TasksChanged = z.object({
  conversationId: z.string(),
  list: z.object({ tasks: z.array(z.unknown()) }).nullable(),
});
const ConversationsChanged = z.object({ id: z.string(), kind: z.enum(['created', 'updated', 'deleted']) });

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
    /** Feeds one bus event. */
    observe(event: string, payload: unknown): void {
      if (event === 'tasks:changed') {
        const parsed = TasksChanged.safeParse(payload);
        if (!parsed.success) return;
        const { conversationId, list } = parsed.data;
        const has = list !== null && list.tasks.length > 0;
        if (has === listed.has(conversationId)) return;
        if (has) listed.add(conversationId);
        else listed.delete(conversationId);
        changed();
      } else if (event === 'conversations:changed') {
        const parsed = ConversationsChanged.safeParse(payload);
        if (parsed.success && parsed.data.kind === 'deleted') {
          listed.delete(parsed.data.id);
          changed();
        }
      }
    },
    close(): void {
      if (pending) clearTimeout(pending);
      pending = null;
    },
  };
}
