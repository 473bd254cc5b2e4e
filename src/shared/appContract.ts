// What the app reports about itself, and the native menu's commands: this feature's part
// of the IPC contract (merged into shared/ipc.ts).
import { z } from 'zod';
import { call, Empty } from './contract';
import { AppCommand } from './domain';

export const appCalls = {
  'app:info': call(
    Empty,
    z.object({
      version: z.string(),
      host: z.enum(['electron', 'browser']),
      dataDir: z.string(),
      platform: z.string(),
    }),
  ),
} as const;

export const appEvents = {
  /** A native menu item was chosen. */
  'app:command': z.object({ command: AppCommand }),
} as const;
