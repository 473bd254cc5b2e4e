// Where Retry cuts the history so the loop runs again after a failure.
import type { Message } from '../../../shared/domain';
import { AppError } from '../ipc/dispatcher';

/**
 * The id of the first message Retry removes (the failed reply, or trailing notes), or
 * undefined when nothing needs removing. Throws `conflict` when there is nothing to retry.
 */
export function retryPoint(all: Message[]): number | undefined {
  const userAt = all.findLastIndex((m) => m.role === 'user');
  const tail = all.slice(userAt + 1);
  const failed = tail.find((m) => m.role === 'assistant' && m.status !== 'complete');
  if (failed) return failed.id;
  // Trailing notes (e.g. "stopped after N tool rounds") go; the loop continues from the history.
  let i = all.length;
  while (i > userAt + 1 && all[i - 1].role === 'system') i--;
  const end = all[i - 1];
  if (end && end.role === 'assistant' && !end.toolCalls?.length) {
    throw new AppError(
      'conflict',
      'The last reply finished normally, so there is nothing to retry. Use Regenerate for a new reply.',
    );
  }
  if (!end) throw new AppError('conflict', 'There is nothing to retry in this conversation.');
  return all[i]?.id;
}
