// Signing in to a remote MCP server (OAuth 2.1) against the SDK's example server and its
// demo authorization server, all on this machine: the 401 is reported as a sign-in, the
// sign-in goes through discovery, dynamic registration, PKCE and the loopback redirect,
// the tokens land in the secret store (never mcp.json or settings.json), the model's call
// goes through, and Sign out forgets them. Bad authorization servers end with a reason.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { McpServerView } from '../../src/shared/mcp';
import { mcpCorePerTest } from '../support/mcpFixtures';
import { browse, startOAuthExample, startSilentAuthServer } from '../support/mcpOAuthFixtures';
import { startChatCore } from '../support/chatHarness';
import { startScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';
import { writeMcpConfig } from '../support/mcpFixtures';

let example: Awaited<ReturnType<typeof startOAuthExample>>;
beforeAll(async () => {
  example = await startOAuthExample();
});
afterAll(async () => {
  await example?.close();
});

const start = mcpCorePerTest('stepwise-mcp-oauth-');
type Harness = Awaited<ReturnType<typeof start>>['h'];

const card = (h: Harness) => h.core.mcp.state().servers.find((s) => s.name === 'remote')!;
const cardWhen = (h: Harness, match: (view: McpServerView) => boolean) =>
  h.waitForEvent('mcp:changed', (state) => state.servers.some((s) => s.name === 'remote' && match(s)));

it('reports a 401 as a sign-in, signs in through the browser and the loopback, and calls the tool', async () => {
  const { h, server, dataDir } = await start({ remote: { url: example.url, trusted: true } });
  // Before signing in: the server is refused, with no fallback to the older transport.
  await expect(h.core.mcp.server('remote')!.ensure()).rejects.toThrow(/needs the user to sign in/);
  expect(card(h)).toMatchObject({ state: 'error', error: 'This server needs you to sign in.', signIn: 'needed' });

  const { authorizationUrl } = await h.call('mcp:signIn', { name: 'remote' });
  expect(authorizationUrl).toMatch(/code_challenge_method=S256/);
  const url = new URL(authorizationUrl!);
  expect(url.origin).toBe(new URL(example.authUrl).origin);
  expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  expect(card(h)).toMatchObject({ signIn: 'waiting', signInUrl: authorizationUrl });

  const ready = cardWhen(h, (s) => s.state === 'ready' && s.signIn === 'signedIn');
  const page = await browse(authorizationUrl!);
  expect(page).toMatchObject({ status: 200 });
  expect(page.text).toContain('You are signed in');
  await ready;

  server.push(
    { toolCalls: [{ id: 'call_greet', name: 'mcp__remote__greet', arguments: '{"name":"Ada"}' }] },
    { text: 'Done.' },
  );
  const conversation = await h.newConversation('Remote');
  await h.sendAndWait(conversation.id, 'Greet Ada.');
  expect(h.messages(conversation.id).find((m) => m.role === 'tool')!.content).toContain('Hello, Ada!');

  // The tokens are in the secret store only.
  const secret = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8');
  const token = (JSON.parse(JSON.parse(secret).mcpOAuth) as Record<string, { tokens: { access_token: string } }>).remote
    .tokens.access_token;
  expect(token).toMatch(/\w{8}/);
  for (const file of ['mcp.json', 'settings.json']) {
    const text = fs.existsSync(path.join(dataDir, file)) ? fs.readFileSync(path.join(dataDir, file), 'utf8') : '';
    expect(text).not.toContain(token);
  }

  // Sign out forgets them; the server asks again.
  await h.call('mcp:signOut', { name: 'remote' });
  expect(fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8')).not.toContain(token);
  await expect.poll(() => card(h).signIn).toBe('needed');
});

it('an authorization server that refuses the sign-in leaves the reason on the card, and Sign in again works', async () => {
  const { h } = await start({ remote: { url: example.url } });
  const { authorizationUrl } = await h.call('mcp:signIn', { name: 'remote' });
  const redirect = new URL(new URL(authorizationUrl!).searchParams.get('redirect_uri')!);
  const state = new URL(authorizationUrl!).searchParams.get('state')!;
  // What the browser brings back when the user denies access on the authorization page.
  const denied = await browse(`${redirect.href}?error=access_denied&error_description=The+user+said+no&state=${state}`);
  expect(denied.status).toBe(400);
  await cardWhen(h, (s) => s.signIn === 'failed');
  expect(card(h).signInError).toBe(
    'Signing in to remote failed: the authorization server refused the sign-in: access_denied (The user said no).',
  );

  const again = await h.call('mcp:signIn', { name: 'remote' });
  const ready = cardWhen(h, (s) => s.state === 'ready');
  await browse(again.authorizationUrl!);
  await ready;
  expect(card(h).signIn).toBe('signedIn');
});

it('a browser that never comes back ends the sign-in with a reason when its time is up', async () => {
  const root = makeTempDir('stepwise-mcp-oauth-late-');
  const dataDir = path.join(root, 'data');
  writeMcpConfig(dataDir, { remote: { url: example.url } });
  const model = await startScriptedServer();
  const h = startChatCore(model, { dataDir, mcpSignIn: { callbackPort: 0, timeoutMs: 1500 } });
  try {
    // The authorization server sent the browser elsewhere: nothing arrives at the loopback.
    const { authorizationUrl } = await h.call('mcp:signIn', { name: 'remote' });
    expect(authorizationUrl).toBeTruthy();
    await cardWhen(h, (s) => s.signIn === 'failed');
    expect(card(h).signInError).toMatch(
      /^Signing in to remote failed: the browser did not come back to Stepwise within 2 s .*Try again\.$/,
    );
  } finally {
    await h.close();
    await model.close();
    removeDir(root);
  }
});

it('an authorization server that never answers ends the sign-in with a reason', async () => {
  const silent = await startSilentAuthServer();
  const root = makeTempDir('stepwise-mcp-oauth-silent-');
  const dataDir = path.join(root, 'data');
  writeMcpConfig(dataDir, { remote: { url: silent.url } });
  const model = await startScriptedServer();
  const h = startChatCore(model, { dataDir, mcpSignIn: { callbackPort: 0, requestTimeoutMs: 1000 } });
  try {
    await expect(h.core.mcp.server('remote')!.ensure()).rejects.toThrow(/needs the user to sign in/);
    const { authorizationUrl } = await h.call('mcp:signIn', { name: 'remote' });
    expect(authorizationUrl).toBeNull();
    expect(card(h)).toMatchObject({
      signIn: 'failed',
      signInError:
        'Signing in to remote failed: the authorization server did not answer within 1 s; check that it is reachable and try again.',
    });
  } finally {
    await h.close();
    await model.close();
    removeDir(root);
    await silent.close();
  }
});
