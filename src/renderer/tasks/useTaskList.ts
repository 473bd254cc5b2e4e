import { useEffect, useState } from 'react';
import type { TaskList } from '../../shared/tasks';
import { call, useApi, useEvent } from '../api/apiContext';

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
      if (change.conversationId === conversationId) setState({ list: change.list, loaded: true });
    },
    [conversationId],
  );
  return state;
}
