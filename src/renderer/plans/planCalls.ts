// The calls plan review keeps from running (PlanState.calls), for the tool cards of the
// conversation and of its workers' transcripts: a waiting call says what it waits for.
import { createContext, useContext } from 'react';
import type { PlanCall } from '../../shared/planContract';

export const PlanCallsContext = createContext<readonly PlanCall[]>([]);

export const usePlanCalls = () => useContext(PlanCallsContext);

/** The words of a waiting call's card, or null when plan review does not hold it. */
export function waitingState(calls: readonly PlanCall[], toolCallId: string): string | null {
  const found = calls.find((c) => c.toolCallId === toolCallId && c.state !== 'held');
  if (!found) return null;
  return found.state === 'waiting_for_plan'
    ? 'waiting for plan approval'
    : 'waiting for you to approve the change to the plan';
}
