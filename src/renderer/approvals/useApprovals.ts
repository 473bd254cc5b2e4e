// The calls of a conversation (and of its workers) waiting for the user, and the progress
// running tools report. Tool cards read both through the context, so a card in a worker's
// transcript shows its approval buttons too.
import { createContext, useCallback, useContext, useState } from 'react';
import type { Approval, ApprovalDecision, ToolProgress } from '../../shared/mcp';
import { call, useApi, useEvent } from '../api/apiContext';
import { useGuard } from '../common/toasts';
import { followedCall, useQuery } from '../query/useQuery';

export interface ApprovalsValue {
  approvals: Approval[];
  progress: Map<string, ToolProgress>;
  answer: (id: string, decision: ApprovalDecision) => void;
}

export const ApprovalsContext = createContext<ApprovalsValue>({
  approvals: [],
  progress: new Map(),
  answer: () => undefined,
});

export const useApprovalsContext = () => useContext(ApprovalsContext);

export function useApprovals(conversationId: string, transcriptIds: string[]): ApprovalsValue {
  const api = useApi();
  const guard = useGuard();
  const [approvals] = useQuery(
    followedCall({
      call: 'approvals:list',
      params: { conversationId },
      event: 'approvals:changed',
      pick: (change) => (change.conversationId === conversationId ? change.approvals : undefined),
    }),
    [],
  );
  const [progress, setProgress] = useState<Map<string, ToolProgress>>(new Map());
  const watched = transcriptIds.join(',');

  useEvent(
    'tools:progress',
    (update) => {
      if (update.conversationId !== conversationId && !watched.split(',').includes(update.conversationId)) return;
      setProgress((old) => new Map(old).set(update.toolCallId, update));
    },
    [conversationId, watched],
  );

  const answer = useCallback(
    (id: string, decision: ApprovalDecision) => void guard(() => call(api, 'approvals:answer', { id, decision })),
    [api, guard],
  );
  return { approvals, progress, answer };
}
