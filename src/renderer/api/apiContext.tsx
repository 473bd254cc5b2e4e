// React access to the typed API. `call` unwraps results and throws an ApiError whose
// message is already written for the user.
import { createContext, useContext, useEffect } from 'react';
import type {
  CallName,
  CallRequest,
  CallResponse,
  EventName,
  EventPayload,
  IpcError,
  StepwiseApi,
} from '../../shared/ipc';

export class ApiError extends Error {
  constructor(readonly error: IpcError) {
    super(error.message);
    this.name = 'ApiError';
  }
}

export const ApiContext = createContext<StepwiseApi | null>(null);

export function useApi(): StepwiseApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside ApiContext');
  return api;
}

export async function call<N extends CallName>(
  api: StepwiseApi,
  name: N,
  params: CallRequest<N>,
): Promise<CallResponse<N>> {
  const result = await api.invoke(name, params);
  if (!result.ok) throw new ApiError(result.error);
  return result.value;
}

export function useEvent<E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
  deps: unknown[],
): void {
  const api = useApi();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => api.on(event, listener), [api, event, ...deps]);
}
