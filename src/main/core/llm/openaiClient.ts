// One configured openai SDK client per run, from a resolved provider connection.
// Configuration problems become ChatErrors before any request.
import OpenAI from 'openai';
import type { Connection } from './connection';
import { fixIn } from './connection';
import { ChatFailure, configError, hostOf, redact, type ErrorContext } from './chatErrors';

export interface ClientOptions {
  /** Until the response headers arrive; the SDK retries timeouts too. */
  requestTimeoutMs: number;
  maxRetries: number;
  log: (line: string) => void;
  /** The agent loop's wire-level handling (streamFetch.ts); the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** Local servers (Ollama, LM Studio) need no key, but the SDK insists on one. */
const NO_KEY = 'no-key';

export function errorContext(connection: Connection): ErrorContext {
  return { model: connection.model, baseUrl: connection.baseUrl, apiKey: connection.apiKey, connection };
}

export function createClient(
  connection: Connection,
  options: ClientOptions,
  need: { model: boolean } = { model: true },
): { client: OpenAI; ctx: ErrorContext } {
  const baseUrl = connection.baseUrl.trim();
  const model = connection.model.trim();
  const apiKey = connection.apiKey;
  const ctx = errorContext(connection);
  const fixUrl = fixIn(connection, 'baseUrl');
  if (!baseUrl) throw new ChatFailure(configError(`No server is set. Enter a base URL ${fixUrl}.`));
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ChatFailure(configError(`The base URL "${baseUrl}" is not a valid address. Fix it ${fixUrl}.`));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ChatFailure(
      configError(`The base URL must start with http:// or https://, not "${url.protocol}". Fix it ${fixUrl}.`),
    );
  }
  if (need.model && !model)
    throw new ChatFailure(
      configError(
        `No model is chosen. Pick a model in the conversation header or ${fixIn(connection, 'defaultModel')}.`,
      ),
    );
  if (connection.heldFor) {
    throw new ChatFailure(
      configError(
        `The saved API key of "${connection.profileName}" was saved for ${hostOf(connection.heldFor)}, not ${hostOf(baseUrl)}, so it was not sent. ` +
          'Confirm sending it, or enter a key for this address, in Settings.',
      ),
    );
  }
  if (!apiKey && url.hostname === 'api.openai.com') {
    throw new ChatFailure(configError(`No API key is set. Add your OpenAI API key ${fixIn(connection, 'apiKey')}.`));
  }
  const log =
    (level: string) =>
    (message: string, ...rest: unknown[]) =>
      options.log(redact(`[stepwise] openai ${level}: ${[message, ...rest.map(describe)].join(' ')}`, apiKey));
  const client = new OpenAI({
    apiKey: apiKey || NO_KEY,
    baseURL: baseUrl,
    // Pass everything explicitly: the SDK would otherwise read process.env.
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    defaultHeaders: connection.headers,
    timeout: options.requestTimeoutMs,
    maxRetries: options.maxRetries,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    logLevel: 'warn',
    logger: { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug') },
  });
  return { client, ctx };
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
