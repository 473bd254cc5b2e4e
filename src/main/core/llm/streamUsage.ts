// Usage comes with `stream_options: {include_usage: true}`. Some servers reject the
// field (a 400/422 naming it); then the request is sent again without it, and the
// profile remembers not to ask again. Any other 400 is the caller's to report.
import { APIError, BadRequestError, UnprocessableEntityError } from 'openai';

const NAMES_FIELD = /stream_options|include_usage|stream options/i;

function rejectsStreamOptions(error: unknown): boolean {
  if (!(error instanceof BadRequestError || error instanceof UnprocessableEntityError)) return false;
  const body = (error as APIError).error;
  return NAMES_FIELD.test(`${error.message} ${JSON.stringify(body ?? '')}`);
}

export async function withUsageFallback<T>(
  askForUsage: boolean,
  send: (withUsage: boolean) => Promise<T>,
  onRejected: () => void,
  nothingArrived: () => boolean,
): Promise<T> {
  if (!askForUsage) return send(false);
  try {
    return await send(true);
  } catch (error) {
    if (!rejectsStreamOptions(error) || !nothingArrived()) throw error;
    const result = await send(false);
    onRejected();
    return result;
  }
}
