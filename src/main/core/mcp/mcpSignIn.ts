// Signing in to a remote MCP server from its card: the SDK discovers the authorization
// server (protected resource metadata, then its metadata), registers Stepwise (dynamic
// registration, or a client ID metadata document where accepted) and builds the PKCE
// authorization URL; the renderer opens it in the system browser (or a new tab); the
// browser comes back to the loopback address with the code, which the SDK exchanges for
// tokens. Every step has a deadline, so a sign-in ends within 2 minutes with a reason.
import { randomBytes } from 'node:crypto';
import type { ServerConfig } from './mcpConfig';
import { oauthProvider, timedFetch, AUTH_REQUEST_TIMEOUT_MS, type AuthHints, type SignInReason } from './mcpOAuth';
import type { OAuthStore } from './mcpOAuthStore';
import type { Loopback } from './mcpLoopback';

export const SIGN_IN_TIMEOUT_MS = 120_000;

export type SignInStatus = 'none' | 'needed' | 'waiting' | 'failed' | 'signedIn';

export interface SignInDeps {
  store: OAuthStore;
  loopback: Loopback;
  clientName: string;
  clientMetadataUrl?: string;
  timeoutMs?: number;
  requestTimeoutMs?: number;
  changed(): void;
  /** The sign-in finished: the server reconnects with its tokens. */
  signedIn(server: string): void;
}

interface Flow {
  controller: AbortController;
  url: string | null;
  error: string | null;
}

function seconds(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} minute${ms === 60_000 ? '' : 's'}` : `${Math.round(ms / 1000)} s`;
}

/** A reason a user can act on, whatever failed underneath. */
export function describeSignInError(error: unknown, requestTimeoutMs = AUTH_REQUEST_TIMEOUT_MS): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  if (e?.name === 'TimeoutError')
    return `the authorization server did not answer within ${seconds(requestTimeoutMs)}; check that it is reachable and try again.`;
  const code = e?.cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ECONNRESET' || e?.message === 'fetch failed')
    return `the authorization server could not be reached (${code ?? e?.cause?.message ?? 'network error'}); check the address and your connection, then try again.`;
  const text = e?.message ?? String(error);
  return text.replace(/\.$/, '') + '.';
}

export function createSignIn(deps: SignInDeps) {
  const flows = new Map<string, Flow>();
  /** What each server's last refusal said (where to sign in, which scope), and why it refused. */
  const refusals = new Map<string, { hints: AuthHints; reason: SignInReason | null }>();
  const timeoutMs = deps.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
  const requestTimeoutMs = deps.requestTimeoutMs ?? AUTH_REQUEST_TIMEOUT_MS;

  function status(config: ServerConfig): { status: SignInStatus; url: string | null; error: string | null } {
    const flow = flows.get(config.name);
    if (flow?.error) return { status: 'failed', url: null, error: flow.error };
    if (flow) return { status: 'waiting', url: flow.url, error: null };
    if (refusals.get(config.name)?.reason) return { status: 'needed', url: null, error: null };
    return { status: deps.store.signedIn(config.name, config.url) ? 'signedIn' : 'none', url: null, error: null };
  }

  function cancel(name: string) {
    const flow = flows.get(name);
    if (!flow) return;
    flows.delete(name);
    flow.controller.abort(new Error('The sign-in was cancelled.'));
    deps.changed();
  }

  /**
   * Starts a sign-in and resolves with the authorization page to open, or null when none is
   * needed (a refresh token renewed it). The rest (waiting for the browser, the exchange)
   * goes on in the background and ends in `signedIn` or an error on the card.
   */
  async function start(config: ServerConfig): Promise<string | null> {
    cancel(config.name);
    const controller = new AbortController();
    const flow: Flow = { controller, url: null, error: null };
    flows.set(config.name, flow);
    deps.changed();
    const deadline = setTimeout(
      () =>
        controller.abort(
          new Error(
            `the browser did not come back to Stepwise within ${seconds(timeoutMs)} (the sign-in page may have been closed, or the authorization server sent it elsewhere). Try again.`,
          ),
        ),
      timeoutMs,
    );
    const fail = (error: unknown) => {
      clearTimeout(deadline);
      if (flows.get(config.name) !== flow) return;
      const reason =
        controller.signal.aborted && controller.signal.reason instanceof Error ? controller.signal.reason : error;
      flow.error = `Signing in to ${config.name} failed: ${describeSignInError(reason, requestTimeoutMs)}`;
      deps.changed();
    };
    const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
    const state = randomBytes(16).toString('base64url');
    let authorizationUrl: URL | null = null;
    let provider;
    let hints: AuthHints = {};
    const fetchFn = timedFetch(controller.signal, requestTimeoutMs);
    try {
      const redirectUrl = await deps.loopback.ensure();
      hints = refusals.get(config.name)?.hints ?? {};
      // A sign-in the user asks for is a new authorization (it may need more scope than the tokens carry).
      deps.store.forgetTokens(config.name);
      provider = oauthProvider({
        config,
        store: deps.store,
        redirectUrl,
        state,
        clientName: deps.clientName,
        clientMetadataUrl: deps.clientMetadataUrl,
        onAuthorizationUrl: (url) => {
          authorizationUrl = url;
        },
      });
      const result = await auth(provider, { serverUrl: config.url, ...hints, fetchFn });
      if (result === 'AUTHORIZED' || !authorizationUrl) {
        clearTimeout(deadline);
        finish(config, flow);
        return null;
      }
    } catch (error) {
      fail(error);
      return null;
    }
    flow.url = (authorizationUrl as URL).href;
    deps.changed();
    const waiting = deps.loopback.wait(state, controller.signal);
    void waiting
      .then((code) =>
        auth(provider, { serverUrl: config.url, ...hints, authorizationCode: code, fetchFn }).then((result) => {
          if (result !== 'AUTHORIZED') throw new Error('the authorization server gave no tokens for the code.');
          clearTimeout(deadline);
          finish(config, flow);
        }),
      )
      .catch(fail);
    return flow.url;
  }

  function finish(config: ServerConfig, flow: Flow) {
    if (flows.get(config.name) === flow) flows.delete(config.name);
    const known = refusals.get(config.name);
    if (known) refusals.set(config.name, { ...known, reason: null });
    deps.changed();
    deps.signedIn(config.name);
  }

  return {
    status,
    start,
    cancel,
    /** What a server's 401 or 403 said about where to sign in; a 401 carries no scope, so a 403's is kept. */
    hints(name: string, hints: AuthHints) {
      const known = refusals.get(name);
      refusals.set(name, {
        hints: { ...known?.hints, ...hints, scope: hints.scope ?? known?.hints.scope },
        reason: known?.reason ?? null,
      });
    },
    /** A connection or call was refused for want of a sign-in. */
    needed(name: string, reason: SignInReason) {
      refusals.set(name, { hints: refusals.get(name)?.hints ?? {}, reason });
      deps.changed();
    },
    /** The server answered: whatever it refused before is settled. */
    connected(name: string) {
      const known = refusals.get(name);
      if (known?.reason) refusals.set(name, { ...known, reason: null });
    },
    /** Sign out: the tokens are forgotten; the server asks for a sign-in again on its next use. */
    signOut(config: ServerConfig) {
      cancel(config.name);
      deps.store.forgetTokens(config.name);
      deps.changed();
    },
    /** The server was removed or its URL changed. */
    forget(name: string) {
      cancel(name);
      refusals.delete(name);
      deps.store.forget(name);
    },
    close() {
      for (const name of flows.keys()) cancel(name);
      deps.loopback.close();
    },
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
