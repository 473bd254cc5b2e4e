// Building blocks of the IPC contract. Each feature may keep its calls and events in a
// fragment of its own (`shared/<feature>Contract.ts`) built from these, which
// `shared/ipc.ts` merges into the one table.
import { z } from 'zod';

export const call = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({
  request,
  response,
});

export const Empty = z.strictObject({});
