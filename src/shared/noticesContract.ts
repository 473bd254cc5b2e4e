// Notices (start-up warnings and the like) and the calls that list and dismiss them:
// this feature's part of the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call, Empty } from './contract';
import { Notice } from './domain';

export const noticeCalls = {
  'notices:list': call(Empty, z.array(Notice)),
  'notices:dismiss': call(z.strictObject({ id: z.string() }), z.array(Notice)),
} as const;

export const noticeEvents = {
  'notices:changed': z.array(Notice),
} as const;
