// How the stdio bridge knows the endpoint named in task-share.json is this Stepwise before
// it sends the token: it sends a fresh nonce, unauthenticated, and the endpoint answers
// with an HMAC of it keyed by the token. A process that took the port after a crash does
// not know the token, so it cannot answer, and the bridge never sends it the token.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The path of the challenge, beside /mcp. */
export const IDENTITY_PATH = '/stepwise-identity';
const NONCE = /^[A-Za-z0-9_-]{22,128}$/;

export const newNonce = (): string => randomBytes(24).toString('base64url');

export const isNonce = (value: string): boolean => NONCE.test(value);

/** The answer to `nonce` at the endpoint `url` (bound to both, so it is no good elsewhere). */
export function identityProof(token: string, url: string, nonce: string): string {
  return createHmac('sha256', token).update(`stepwise-task-share\n${url}\n${nonce}`).digest('base64url');
}

export function isProof(token: string, url: string, nonce: string, proof: string): boolean {
  const expected = Buffer.from(identityProof(token, url, nonce));
  const given = Buffer.from(proof);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * How long the bridge waits for the proof. It counts from before its first `fetch` (which
 * loads the HTTP client of a cold process) and the app answers between other clients'
 * calls, so on a busy machine a short wait turned the running app away (the bridge then
 * serves read-only); only a silent squatter pays the whole wait.
 */
export const PROOF_WAIT_MS = 5000;

/**
 * Whether the endpoint at `url` proves it holds `token`. Connection refused, a timeout,
 * any other answer or a wrong proof: false. The token itself is never sent.
 */
export async function endpointProvesIdentity(url: string, token: string, timeoutMs = PROOF_WAIT_MS): Promise<boolean> {
  const nonce = newNonce();
  const challenge = new URL(IDENTITY_PATH, url);
  challenge.searchParams.set('nonce', nonce);
  try {
    const response = await fetch(challenge, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    if (!response.ok) return false;
    const body = (await response.json()) as { proof?: unknown };
    return typeof body.proof === 'string' && isProof(token, url, nonce, body.proof);
  } catch {
    return false;
  }
}
