import type { ChatStatus } from '../../shared/domain';
import { useConnectionState } from '../common/connectionStore';
import { followedCall, useQuery } from '../query/useQuery';

export function useChatStatus(conversationId: string): ChatStatus {
  const [status] = useQuery(
    followedCall({
      call: 'chat:status',
      params: { conversationId },
      event: 'chat:status',
      pick: (next) => (next.conversationId === conversationId ? next : undefined),
    }),
    { conversationId, running: false, error: null },
  );
  // A tab whose host was restarted hears no more events: the reply it showed running is
  // not running in this tab any more, whatever the new host does.
  const restarted = useConnectionState() === 'restarted';
  return restarted && status.running ? { ...status, running: false } : status;
}
