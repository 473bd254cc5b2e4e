import { useEffect, useState } from 'react';
import type { ChatStatus } from '../../shared/domain';
import { call, useApi, useEvent } from '../api/apiContext';
import { useConnectionState } from '../common/connectionStore';

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
  // A tab whose host was restarted hears no more events: the reply it showed running is
  // not running in this tab any more, whatever the new host does.
  const restarted = useConnectionState() === 'restarted';
  return restarted && status.running ? { ...status, running: false } : status;
}
