// The small parts of MCP sign-in, forms and logs, each on its own: the loopback answers only
// the sign-in it waits for, the OAuth store binds tokens to their server's URL, a form's
// values are checked with a reason, and a server's log keeps its last 500 lines.
import { describe, expect, it } from 'vitest';
import { createLoopback } from '../../src/main/core/mcp/mcpLoopback';
import { createOAuthStore } from '../../src/main/core/mcp/mcpOAuthStore';
import { createLogBuffer, LOG_LINE_CHARS } from '../../src/main/core/mcp/mcpLog';
import { formProblem, type QuestionField } from '../../src/shared/questions';

describe('the loopback redirect', () => {
  it('hands the code to the sign-in whose state comes back, and refuses any other', async () => {
    const loopback = createLoopback({ preferredPort: 0 });
    const redirect = await loopback.ensure();
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const code = loopback.wait('state-1', new AbortController().signal);
    const stranger = await fetch(`${redirect}?code=stolen&state=someone-else`);
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('Stepwise is not waiting for this sign-in');
    const ok = await fetch(`${redirect}?code=abc&state=state-1`);
    expect(ok.status).toBe(200);
    await expect(code).resolves.toBe('abc');
    loopback.close();
  });

  it("rejects with the authorization server's error, and with the reason when aborted", async () => {
    const loopback = createLoopback({ preferredPort: 0 });
    const redirect = await loopback.ensure();
    const refused = expect(loopback.wait('s', new AbortController().signal)).rejects.toThrow(
      'the authorization server refused the sign-in: access_denied (No thanks)',
    );
    await fetch(`${redirect}?error=access_denied&error_description=No+thanks&state=s`);
    await refused;
    await loopback.ensure();
    const controller = new AbortController();
    const late = loopback.wait('t', controller.signal);
    controller.abort(new Error('took too long'));
    await expect(late).rejects.toThrow('took too long');
    loopback.close();
  });
});

describe('the OAuth store', () => {
  it('keeps tokens per server, bound to the URL they were made for; Sign out keeps the client', () => {
    let secret: string | null = null;
    const store = createOAuthStore({ read: () => secret, write: (v) => (secret = v) });
    store.update('a', 'https://a.example/mcp', (s) => ({
      ...s,
      tokens: { access_token: 't1' },
      client: { client_id: 'c' },
    }));
    expect(store.signedIn('a', 'https://a.example/mcp')).toBe(true);
    // The same name pointed elsewhere gets nothing.
    expect(store.get('a', 'https://evil.example/mcp')).toBeNull();
    store.forgetTokens('a');
    expect(store.get('a', 'https://a.example/mcp')).toEqual({
      url: 'https://a.example/mcp',
      client: { client_id: 'c' },
    });
    store.forget('a');
    expect(secret).toBeNull();
  });
});

describe('form answers', () => {
  const field = (over: Partial<QuestionField>): QuestionField => ({
    name: 'f',
    label: 'Count',
    description: '',
    required: false,
    kind: 'text',
    format: null,
    options: [],
    value: null,
    minimum: null,
    maximum: null,
    ...over,
  });
  it('names what does not fit', () => {
    expect(formProblem([field({ required: true })], {})).toBe('Count is required.');
    expect(formProblem([field({ kind: 'integer', maximum: 10 })], { f: 11 })).toBe('Count must be at most 10.');
    expect(formProblem([field({ kind: 'integer' })], { f: 1.5 })).toBe('Count must be a whole number.');
    const choice = field({ kind: 'choice', options: [{ value: 'a', label: 'A' }] });
    expect(formProblem([choice], { f: 'b' })).toBe('Count must be one of a.');
    const choices = field({ kind: 'choices', options: [{ value: 'a', label: 'A' }], maximum: 1 });
    expect(formProblem([choices], { f: ['a', 'a'] })).toBe('Choose at most 1 for Count.');
    expect(formProblem([field({ kind: 'boolean' })], { f: 'yes' })).toBe('Count must be on or off.');
    expect(formProblem([field({ kind: 'number', minimum: 0 })], { f: 0 })).toBeNull();
  });
});

describe("a server's log", () => {
  it('keeps the last 500 lines, oldest first, each cut to its limit', () => {
    let t = 0;
    const log = createLogBuffer(() => ++t);
    for (let i = 1; i <= 1200; i++) log.add({ level: 'info', logger: null, text: `line ${i}` });
    log.add({ level: 'error', logger: 'x', text: 'y'.repeat(LOG_LINE_CHARS + 10) });
    const view = log.view();
    expect(view.entries).toHaveLength(500);
    expect(view.dropped).toBe(701);
    expect(view.entries[0].text).toBe('line 702');
    expect(view.entries.at(-1)!.text).toHaveLength(LOG_LINE_CHARS + 1);
  });
});
