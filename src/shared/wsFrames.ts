// The browser host's WebSocket transport of the contract in ipc.ts. Kept apart from the
// contract's tables so that the page reads frames without loading every schema.
import { z } from 'zod';
import { IpcError, type IpcResult } from './ipcResult';

// The page sends requests; the host sends responses (by request id) and events. Both
// ends build and read them through these.
export const WsRequestFrame = z.strictObject({
  id: z.number().int(),
  method: z.string(),
  params: z.unknown(),
});
export type WsRequestFrame = z.infer<typeof WsRequestFrame>;
/**
 * `id` -1: the frame was not JSON, or had no id to answer. A result may be anything (JSON
 * drops an undefined one), so it is a strict object: a broken error is refused, never
 * read as a success.
 */
export const WsResponseFrame = z.union([
  z.object({ id: z.number().int(), error: IpcError }),
  z.strictObject({ id: z.number().int(), result: z.unknown().optional() }),
]);
export type WsResponseFrame = z.infer<typeof WsResponseFrame>;
export const WsEventFrame = z.object({ event: z.string(), payload: z.unknown() });
export type WsEventFrame = z.infer<typeof WsEventFrame>;
/** Whatever the host sends the page. */
export const WsServerFrame = z.union([WsEventFrame, WsResponseFrame]);
export type WsServerFrame = z.infer<typeof WsServerFrame>;

/** A response frame's result as the renderer's API gives it back. */
export function resultOf(frame: WsResponseFrame): IpcResult<unknown> {
  return 'error' in frame ? { ok: false, error: frame.error } : { ok: true, value: frame.result };
}
