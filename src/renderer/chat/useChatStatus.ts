import { useEffect, useState } from 'react';
import type { ChatStatus } from '../../shared/domain';
import { call, useApi, useEvent } from '../api/apiContext';

export function useChatStatus(conversationId: string): ChatStatus {
  const api = useApi();
  const [status, setStatus] = useState<ChatStatus>({ conversationId, running: false, error: null });
  useEffect(() => {
    void call(api, 'chat:status', { conversationId }).then(setStatus, () => {});
  }, [api, conversationId]);
  useEvent(
    'chat:status',
    (next) => {
      if (next.conversationId === conversationId) setStatus(next);
    },
    [conversationId],
  );
  return status;
}
