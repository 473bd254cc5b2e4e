// Stop halts everything in a conversation at once: Autopilot's pending step, the calls
// waiting for approval, the main agent and every worker (with a summary when workers were
// involved), and leaves the task list continuable.
import type { ChatStatus } from '../../../shared/domain';
import type { HandlersFor } from '../../../shared/contract';
import type { stopCalls } from '../../../shared/stopContract';

export interface StopAllDeps {
  autopilot: { stop(conversationId: string): void };
  /** Denies every call waiting for approval; how many there were. */
  approvals: { denyAll(conversationId: string): number };
  workers: { stopAll(conversationId: string): Promise<unknown> };
  questions: { cancelAll(conversationId: string, reason: 'stopped'): unknown };
  continuity: { stopped(conversationId: string): void };
  chat: { status(conversationId: string): ChatStatus };
}

export function createStopAll(deps: StopAllDeps) {
  /** The user's Stop, also for another module that must halt a conversation (a deleted routine's run). */
  async function stop(conversationId: string): Promise<ChatStatus> {
    deps.autopilot.stop(conversationId);
    // Every call waiting for approval is denied (not just cancelled), and the model is told so.
    if (deps.approvals.denyAll(conversationId)) await new Promise((resolve) => setImmediate(resolve));
    // stopAll notes who was waiting for input before anything is cancelled.
    const stopping = deps.workers.stopAll(conversationId);
    deps.questions.cancelAll(conversationId, 'stopped');
    await stopping;
    deps.continuity.stopped(conversationId);
    return deps.chat.status(conversationId);
  }
  const handlers: HandlersFor<typeof stopCalls> = { 'chat:stop': ({ conversationId }) => stop(conversationId) };
  return { handlers, stop };
}
