import { useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import type { TaskList } from '../../shared/tasks';
import { call, useApi, useEvent } from '../api/apiContext';
import { withUnchangedTasks } from './unchangedTasks';

/** The open task list of a conversation, live from `tasks:changed`. */
export function useTaskList(conversationId: string): { list: TaskList | null; loaded: boolean } {
  const api = useApi();
  const [state, setState] = useState<{ list: TaskList | null; loaded: boolean }>({ list: null, loaded: false });
  useEffect(() => {
    void call(api, 'tasks:get', { conversationId }).then(
      ({ list }) => setState({ list, loaded: true }),
      () => setState((s) => ({ ...s, loaded: true })),
    );
  }, [api, conversationId]);
  useEvent(
    'tasks:changed',
    (change) => {
      // Rendered at once, inside the socket's message task: the header is small, and waiting
      // for React's scheduler (with the sidebar's update batched in) was most of its latency.
      // Tasks that did not change keep their objects, so only the changed rows render.
      if (change.conversationId === conversationId) {
        flushSync(() =>
          setState((s) => ({ list: change.list && withUnchangedTasks(s.list, change.list), loaded: true })),
        );
      }
    },
    [conversationId],
  );
  return state;
}
