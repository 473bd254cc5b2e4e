// What a call's result says when the task it was made for was deleted before the result
// came back (the user deleted it in the header while the call waited for approval, or a
// rejected plan change took it away). The result is stored and sent either way: a call
// that ran may have had its effect, so the model must read that it ran; one the user
// denied did not run, and the model reads exactly that.
import type { ToolRunResult } from '../tools/toolTypes';
import { outcomeOf } from '../tools/toolTypes';

/** "deleted task 1": how a result names the task it was made for once that task is gone. */
export const deletedTaskName = (seq: number) => `deleted task ${seq}`;

export function withDeletedTask(result: ToolRunResult, seq: number): string {
  const outcome = outcomeOf(result);
  if (outcome === 'denied')
    return `The user deleted task ${seq} before this call was allowed, then denied it; it did not run.`;
  const ran = outcome === 'ok' ? 'This call ran; its result is above. ' : '';
  return `${result.content}\n\n(${ran}It was made for ${deletedTaskName(seq)}, which was deleted before the call finished.)`;
}
