// Turns any (method, params) pair from a transport into a validated handler call and
// an IpcResult. Nothing a renderer sends can throw past this point.
import type { HandlersFor } from '../../../shared/contract';
import { calls, describeZodError, isCallName, type Calls, type IpcError, type IpcResult } from '../../../shared/ipc';

/** Every call's handler; each module supplies its fragment's part (`HandlersFor<typeof planCalls>`). */
export type Handlers = HandlersFor<Calls>;

/** An error meant for the caller: its message is shown to the user as is. */
export class AppError extends Error {
  constructor(
    readonly code: IpcError['code'],
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

export type Dispatch = (method: unknown, params: unknown) => Promise<IpcResult<unknown>>;

export function createDispatcher(handlers: Handlers, log: (message: string) => void = console.error): Dispatch {
  return async (method, params) => {
    if (!isCallName(method)) {
      return fail('unknown_method', `Unknown call ${JSON.stringify(String(method))}`);
    }
    const spec = calls[method];
    const parsed = spec.request.safeParse(params ?? {});
    if (!parsed.success) {
      return fail('invalid_request', `Invalid request for ${method}: ${describeZodError(parsed.error)}`);
    }
    try {
      const handler = handlers[method] as (p: unknown) => unknown;
      const value = await handler(parsed.data);
      return { ok: true, value: spec.response.parse(value) };
    } catch (error) {
      if (error instanceof AppError) return fail(error.code, error.message);
      log(`[stepwise] ${method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return fail('internal', `${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

function fail(code: IpcError['code'], message: string): IpcResult<never> {
  return { ok: false, error: { code, message } };
}
