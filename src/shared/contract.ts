// Building blocks of the IPC contract. Each feature may keep its calls and events in a
// fragment of its own (`shared/<feature>Contract.ts`) built from these, which
// `shared/ipc.ts` merges into the one table.
import { z } from 'zod';

export const call = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({
  request,
  response,
});

/** A table of calls, as a fragment exports it (`planCalls`) or `ipc.ts` assembles it. */
export type CallTable = Record<string, { request: z.ZodType; response: z.ZodType }>;

/**
 * The handlers of a table of calls, each taking its parsed request and returning its
 * response: a module types its table as `HandlersFor<typeof planCalls>`, so the fragment
 * alone says what the module must answer.
 */
export type HandlersFor<C extends CallTable> = {
  [N in keyof C]: (
    params: z.output<C[N]['request']>,
  ) => z.output<C[N]['response']> | Promise<z.output<C[N]['response']>>;
};

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
