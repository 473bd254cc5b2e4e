// What every call answers, whichever transport carries it: a value, or an error with a
// code and a message a user can act on.
import { z } from 'zod';

export const IpcErrorCode = z.enum([
  'invalid_request',
  'unknown_method',
  'not_found',
  'conflict',
  'unavailable',
  'internal',
]);
export const IpcError = z.object({ code: IpcErrorCode, message: z.string() });
export type IpcError = z.infer<typeof IpcError>;

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };
