// OAuth 2.1 for remote MCP servers through the SDK's client auth (`client/auth.js`): the
// provider the SDK asks for tokens and client details, and the fetch a connection uses to
// notice that a server wants a sign-in. Connections never open a browser: a server that
// needs one is marked, and the user signs in from its card (mcpSignIn.ts).
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerConfig } from './mcpConfig';
import type { OAuthStore } from './mcpOAuthStore';

export const SIGN_IN_NEEDED = 'This server needs you to sign in.';

/** Why a server refused us: no sign-in yet, an expired one, or one without the access a call needs. */
export type SignInReason = 'needed' | 'expired' | 'scope';

export class SignInNeeded extends Error {
  constructor(
    readonly server: string,
    readonly reason: SignInReason,
  ) {
    super(
      reason === 'scope'
        ? 'This server needs you to sign in again to allow more access.'
        : reason === 'expired'
          ? 'Your sign-in to this server expired: sign in again.'
          : SIGN_IN_NEEDED,
    );
  }
}

/** Anywhere in a cause chain (the SDK wraps errors of its transports). */
export function signInNeededIn(error: unknown): SignInNeeded | null {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof SignInNeeded) return e;
  }
  return null;
}

/** What the server's last 401 or 403 said about where to sign in and with which scope. */
export interface AuthHints {
  resourceMetadataUrl?: URL;
  scope?: string;
}

/** Requests to an authorization server get this long; a sign-in never waits on one for ever. */
export const AUTH_REQUEST_TIMEOUT_MS = 30_000;

/** A kept-alive socket the server had already closed: the request never reached it. */
function staleSocket(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } } | null)?.cause?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/** fetch with a deadline for every request (and the sign-in's own abort), tried once more on a stale socket. */
export function timedFetch(signal?: AbortSignal, timeoutMs = AUTH_REQUEST_TIMEOUT_MS): FetchLike {
  const once: FetchLike = (url, init) =>
    fetch(url, {
      ...init,
      signal: AbortSignal.any(
        [AbortSignal.timeout(timeoutMs), signal, init?.signal ?? undefined].filter((s): s is AbortSignal => !!s),
      ),
    });
  return (url, init) =>
    once(url, init).catch((error: unknown) => (staleSocket(error) ? once(url, init) : Promise.reject(error)));
}

export interface ProviderOptions {
  config: ServerConfig;
  store: OAuthStore;
  /** The loopback address the browser comes back to; absent for a connection (it never redirects). */
  redirectUrl?: string;
  /** The `state` the sign-in sends and checks on the way back. */
  state?: string;
  clientName: string;
  /** An https URL of a client ID metadata document, used where the authorization server accepts one. */
  clientMetadataUrl?: string;
  /** The authorization page to send the browser to; without it, needing one means SignInNeeded. */
  onAuthorizationUrl?: (url: URL) => void;
}

/** Where a connection's provider says it would redirect (the SDK needs one to tell it from machine-to-machine flows). */
const UNUSED_REDIRECT = 'http://127.0.0.1/callback';

export function oauthProvider(options: ProviderOptions): OAuthClientProvider {
  const { config, store } = options;
  const saved = () => store.get(config.name, config.url);
  const update = (change: Parameters<OAuthStore['update']>[2]) => store.update(config.name, config.url, change);
  const redirectUrl = options.redirectUrl ?? saved()?.redirectUrl ?? UNUSED_REDIRECT;
  let verifier: string | null = null;
  const preRegistered: OAuthClientInformationMixed | undefined = config.oauthClientId
    ? {
        client_id: config.oauthClientId,
        ...(config.oauthClientSecret ? { client_secret: config.oauthClientSecret } : {}),
      }
    : undefined;

  const metadata: OAuthClientMetadata = {
    client_name: options.clientName,
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };

  return {
    get redirectUrl() {
      return redirectUrl;
    },
    clientMetadataUrl: options.clientMetadataUrl,
    get clientMetadata() {
      return metadata;
    },
    state: options.state ? () => options.state! : undefined,
    clientInformation() {
      if (preRegistered) return preRegistered;
      const current = saved();
      // A client registered for another loopback port cannot receive this redirect: register again.
      if (!current?.client) return undefined;
      if (options.redirectUrl && current.redirectUrl && current.redirectUrl !== options.redirectUrl) {
        const id = current.client.client_id;
        // A client ID metadata document names no port of ours; it stays valid.
        if (!(typeof id === 'string' && id === options.clientMetadataUrl)) return undefined;
      }
      return current.client as OAuthClientInformationMixed;
    },
    saveClientInformation(client) {
      if (preRegistered) return;
      update((s) => ({ ...s, client: { ...client }, redirectUrl }));
    },
    tokens: () => saved()?.tokens as OAuthTokens | undefined,
    saveTokens(tokens) {
      update((s) => ({ ...s, tokens: { ...tokens } }));
    },
    redirectToAuthorization(url) {
      if (!options.onAuthorizationUrl) throw new SignInNeeded(config.name, saved()?.tokens ? 'expired' : 'needed');
      options.onAuthorizationUrl(url);
    },
    saveCodeVerifier(value) {
      verifier = value;
    },
    codeVerifier() {
      if (!verifier) throw new Error('This sign-in was not started here; start it again.');
      return verifier;
    },
    invalidateCredentials(scope) {
      update((s) => {
        const next = { ...s };
        if (scope === 'all' || scope === 'tokens') delete next.tokens;
        if (scope === 'all' || scope === 'client') {
          delete next.client;
          delete next.redirectUrl;
        }
        if (scope === 'all' || scope === 'discovery') delete next.discovery;
        return next;
      });
      if (scope === 'all' || scope === 'verifier') verifier = null;
    },
    saveDiscoveryState(state) {
      update((s) => ({ ...s, discovery: { ...state } }));
    },
    discoveryState: () => saved()?.discovery as ReturnType<NonNullable<OAuthClientProvider['discoveryState']>>,
  };
}

function sameResource(input: string | URL, url: string): boolean {
  try {
    const a = new URL(input);
    const b = new URL(url);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

/**
 * The fetch a remote connection uses. A 401 from the server tells where to sign in and
 * ends the attempt with SignInNeeded unless a refresh token can renew the sign-in (the SDK
 * does that); a 403 for a missing scope needs the user as well. Requests to anywhere else
 * (the authorization server, while refreshing) have a deadline.
 */
export async function authFetch(
  config: ServerConfig,
  store: OAuthStore,
  onHints: (hints: AuthHints) => void,
): Promise<FetchLike> {
  const { extractWWWAuthenticateParams } = await import('@modelcontextprotocol/sdk/client/auth.js');
  const timed = timedFetch();
  return async (input, init) => {
    if (!sameResource(input, config.url)) return timed(input, init);
    const response = await fetch(input, init);
    if (response.status !== 401 && response.status !== 403) return response;
    const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
    onHints({ resourceMetadataUrl, scope });
    const saved = store.get(config.name, config.url);
    if (response.status === 403) {
      if (error !== 'insufficient_scope') return response;
      await response.body?.cancel();
      throw new SignInNeeded(config.name, 'scope');
    }
    if (saved?.tokens?.refresh_token && saved.client) {
      // The SDK refreshes; if that fails it asks the provider to redirect, which ends in SignInNeeded.
      return response;
    }
    await response.body?.cancel();
    throw new SignInNeeded(config.name, saved?.tokens ? 'expired' : 'needed');
  };
}
