// Workers: the agents `start_task` runs beside the main one; this feature's part of the
// IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call } from './contract';
import { ConversationId } from './domain';
import { Worker } from './agents';

export const workerCalls = {
  'workers:list': call(z.strictObject({ conversationId: ConversationId }), z.array(Worker)),
} as const;

export const workerEvents = {
  /** Workers of a conversation were started, changed state or finished. */
  'workers:changed': z.object({ conversationId: ConversationId, workers: z.array(Worker) }),
} as const;
