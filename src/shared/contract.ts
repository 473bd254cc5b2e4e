// Building blocks of the IPC contract. Each feature may keep its calls and events in a
// fragment of its own (`shared/<feature>Contract.ts`) built from these, which
// `shared/ipc.ts` merges into the one table.
import { z } from 'zod';

export const call = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({
  request,
  response,
});

export const Empty = z.strictObject({});

/** Where an export went: saved by main (desktop), cancelled, or a download for the page (browser host). */
export const ExportResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), path: z.string() }),
  z.object({ kind: z.literal('cancelled') }),
  z.object({ kind: z.literal('download'), filename: z.string(), mimeType: z.string(), text: z.string() }),
]);

/** A page of a long list. */
export const Page = {
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(1000).default(200),
};
