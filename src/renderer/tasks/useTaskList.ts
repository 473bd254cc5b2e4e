import { flushSync } from 'react-dom';
import type { TaskList } from '../../shared/tasks';
import { call } from '../api/apiContext';
import { useQuery, type Query } from '../query/useQuery';
import { withUnchangedTasks } from './unchangedTasks';

interface OpenList {
  list: TaskList | null;
}

function taskList(conversationId: string): Query<OpenList> {
  return {
    key: `tasks:get ${conversationId}`,
    // A list that cannot be read shows as none (the header is hidden), not as loading forever.
    load: (api) =>
      call(api, 'tasks:get', { conversationId }).then(
        ({ list }) => ({ list }),
        () => ({ list: null }),
      ),
    follow: (api, control) =>
      api.on('tasks:changed', (change) => {
        if (change.conversationId !== conversationId) return;
        // Rendered at once, inside the socket's message task: the header is small, and waiting
        // for React's scheduler (with the sidebar's update batched in) was most of its latency.
        // Tasks that did not change keep their objects, so only the changed rows render.
        const shown = control.current()?.list ?? null;
        flushSync(() => control.set({ list: change.list && withUnchangedTasks(shown, change.list) }));
      }),
  };
}

/** The open task list of a conversation, live from `tasks:changed`. */
export function useTaskList(conversationId: string): { list: TaskList | null; loaded: boolean } {
  const [state] = useQuery(taskList(conversationId), null);
  return { list: state?.list ?? null, loaded: state !== null };
}
