import type { Worker } from '../../shared/agents';
import { followedCall, useQuery } from '../query/useQuery';

export function useWorkers(conversationId: string): Worker[] {
  const [workers] = useQuery(
    followedCall({
      call: 'workers:list',
      params: { conversationId },
      event: 'workers:changed',
      pick: (change) => (change.conversationId === conversationId ? change.workers : undefined),
    }),
    [],
  );
  return workers;
}

export function workerCounts(workers: Worker[]): string {
  const running = workers.filter((w) => w.status === 'running').length;
  const queued = workers.filter((w) => w.status === 'queued').length;
  const done = workers.filter((w) => w.status === 'done').length;
  const failed = workers.filter((w) => w.status === 'error').length;
  const stopped = workers.filter((w) => w.status === 'stopped').length;
  const parts = [`${running} running`, `${queued} queued`, `${done} done`];
  if (failed) parts.push(`${failed} failed`);
  if (stopped) parts.push(`${stopped} stopped`);
  return `Workers: ${parts.join(' · ')}`;
}
