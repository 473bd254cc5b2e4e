// Every way a request to the model can fail, as a ChatError a user can act on. The API
// key never appears in a message: server texts are passed through `redact` first.
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import type { ChatError } from '../../../shared/domain';
import { fixIn, type Connection } from './connection';

/** Our own failures, raised where the SDK has no error of its own. */
export class ChatFailure extends Error {
  constructor(readonly chatError: ChatError) {
    super(chatError.message);
    this.name = 'ChatFailure';
  }
}

export interface ErrorContext {
  model: string;
  baseUrl: string;
  apiKey: string | null;
  /** Where the request went; names the place to fix a field (Settings or a variable). */
  connection?: Connection;
}

export function redact(text: string, apiKey: string | null): string {
  if (!apiKey || apiKey.length < 4) return text;
  return text.split(apiKey).join('[redacted]');
}

export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

const error = (kind: ChatError['kind'], message: string, retryable: boolean, settings = false): ChatError => ({
  kind,
  message,
  retryable,
  settings,
});

/** What a failed stream had delivered, so its message says only what is true. */
export type Kept = 'reply' | 'reasoning' | 'nothing';

const keptNote: Record<Kept, string> = {
  reply: 'The partial reply was kept.',
  reasoning: 'The model’s thinking so far was kept; no answer had arrived.',
  nothing: 'Nothing of the reply had arrived.',
};

export const droppedError = (kept: Kept = 'reply') =>
  error('dropped', `The connection dropped before the reply finished. ${keptNote[kept]}`, true);

/** A clean end of the body without a finish reason and without `[DONE]`. */
export const closedEarlyError = (kept: Kept) =>
  error(
    'dropped',
    `The server closed the stream before the reply finished (no finish reason, no [DONE]). ${keptNote[kept]}`,
    true,
  );

const duration = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

export const idleTimeoutError = (idleMs: number, kept: Kept) =>
  error('timeout', `The server stopped sending the reply (nothing for ${duration(idleMs)}). ${keptNote[kept]}`, true);

export const interruptedError = () =>
  error('dropped', 'The reply was cut short when Stepwise closed. The partial reply was kept.', true);

export const roundsError = (rounds: number) =>
  error(
    'rounds',
    `Stopped after ${rounds} tool rounds, the limit in Settings. Retry to let the model continue, or raise the limit.`,
    true,
    true,
  );

export function configError(message: string): ChatError {
  return error('config', message, false, true);
}

/**
 * A failure that carries the server's words and comes back word for word is not going
 * away by retrying (a 400 naming a missing field, say): the second time, stop offering
 * Retry and show the server's message with the way to Settings.
 */
export function escalateRepeat(previous: ChatError | null | undefined, next: ChatError): ChatError {
  if (!next.detail || !next.retryable || previous?.detail !== next.detail || previous.kind !== next.kind) return next;
  return {
    ...next,
    message: `The same error came back on retry: ${next.detail} Retrying will not fix this; check the provider and model in Settings.`,
    retryable: false,
    settings: true,
  };
}

/** The server's own words, without the key and without a wall of text. */
function serverDetail(err: APIError, apiKey: string | null): string {
  const body = err.error as { message?: unknown } | undefined;
  const text = typeof body?.message === 'string' ? body.message : err.message;
  const clean = redact(String(text ?? ''), apiKey)
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > 300 ? `${clean.slice(0, 300)}…` : clean;
}

export function toChatError(err: unknown, ctx: ErrorContext): ChatError {
  if (err instanceof ChatFailure) return err.chatError;
  const host = hostOf(ctx.baseUrl);
  if (err instanceof AuthenticationError) {
    return error(
      'auth',
      `The API key was rejected by ${host}. Check the key ${fixIn(ctx.connection, 'apiKey')}.`,
      false,
      true,
    );
  }
  if (err instanceof PermissionDeniedError) {
    return error(
      'auth',
      `${host} refused access with this API key (403). Check the key and its permissions ${fixIn(ctx.connection, 'apiKey')}.`,
      false,
      true,
    );
  }
  if (err instanceof NotFoundError) {
    return error(
      'model',
      `The model "${ctx.model}" was not found at ${host}. Choose another model in the conversation header (or check the base URL ${fixIn(ctx.connection, 'baseUrl')}).`,
      false,
      true,
    );
  }
  if (err instanceof RateLimitError) {
    return error(
      'rate',
      `${host} is rate-limiting requests (429), even after retrying. Wait a moment, then retry.`,
      true,
    );
  }
  if (err instanceof APIConnectionTimeoutError) {
    return error('timeout', `${host} did not answer in time. Retry, or check that the server is running.`, true);
  }
  if (err instanceof APIConnectionError) {
    return error(
      'network',
      `Could not reach ${host}. Check that the server is running and the base URL is right ${fixIn(ctx.connection, 'baseUrl')}.`,
      true,
    );
  }
  if (err instanceof APIError) {
    const detail = serverDetail(err, ctx.apiKey);
    const words = detail ? { detail: `${host} said: “${detail}”` } : {};
    if (err.status === undefined) {
      // An error event inside the stream: the request started, then the server gave up.
      return {
        ...error('server', `${host} reported an error while replying: ${detail || 'no details'}`, true),
        ...words,
      };
    }
    if (err.status >= 500) {
      return error(
        'server',
        `${host} had a server error (${err.status}), even after retrying. Retry in a moment.`,
        true,
      );
    }
    return {
      ...error('unknown', `${host} rejected the request (${err.status}): ${detail || 'no details'}`, true),
      ...words,
    };
  }
  if (isNetworkError(err)) return droppedError();
  const message = redact(err instanceof Error ? err.message : String(err), ctx.apiKey);
  return error('unknown', `The request failed: ${message}`, true);
}

/** Errors fetch raises when the body stops mid-way (`terminated`, a reset socket). */
export function isNetworkError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code ?? (err.cause as { code?: unknown } | undefined)?.code;
  return (
    err.message === 'terminated' ||
    /socket|network|ECONNRESET|EPIPE|other side closed/i.test(err.message) ||
    (typeof code === 'string' && /^(ECONNRESET|EPIPE|UND_ERR_SOCKET|ECONNREFUSED)$/.test(code))
  );
}
