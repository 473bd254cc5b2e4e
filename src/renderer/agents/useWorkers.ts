import { useEffect, useState } from 'react';
import type { Worker } from '../../shared/agents';
import { call, useApi, useEvent } from '../api/apiContext';

export function useWorkers(conversationId: string): Worker[] {
  const api = useApi();
  const [workers, setWorkers] = useState<Worker[]>([]);
  useEffect(() => {
    void call(api, 'workers:list', { conversationId }).then(setWorkers, () => {});
  }, [api, conversationId]);
  useEvent(
    'workers:changed',
    (change) => {
      if (change.conversationId === conversationId) setWorkers(change.workers);
    },
    [conversationId],
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
