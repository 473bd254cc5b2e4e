// The calls of a conversation (and of its workers) waiting for the user, and the progress
// running tools report. Tool cards read both through the context, so a card in a worker's
// transcript shows its approval buttons too.
import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import type { Approval, ApprovalDecision, ToolProgress } from '../../shared/mcp';
import { call, useApi, useEvent } from '../api/apiContext';
import { useGuard } from '../common/toasts';

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
  const [approvals, setApprovals] = useState<Approval[]>([]);
  const [progress, setProgress] = useState<Map<string, ToolProgress>>(new Map());
  const watched = transcriptIds.join(',');

  useEffect(() => {
    let current = true;
    call(api, 'approvals:list', { conversationId }).then(
      (list) => current && setApprovals(list),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, conversationId]);

  useEvent(
    'approvals:changed',
    (change) => {
      if (change.conversationId === conversationId) setApprovals(change.approvals);
    },
    [conversationId],
  );

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
