// A tool call in flight when the host is killed (SIGKILL) may have had its effect: after a
// restart the reply offers Retry, and the model's next request says the call may have
// run, never that it did not run or was interrupted.
import { afterEach, describe, expect, it } from 'vitest';
import { MISSING_RESULT } from '../../src/main/core/context/apiMessages';
import { connectHost, integrityOk, startHostChild } from '../support/hostChild';
import { testServer, writeMcpConfig } from '../support/mcpFixtures';
import { startScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir, seedPlanReviewOff } from '../support/tempDir';

/** Two host starts from source (tsx) and an MCP server, on a shared two-core machine. */
const TIMEOUT = 60_000;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('killed while a tool call runs', () => {
  it('tells the model the call may have run', { timeout: TIMEOUT }, async () => {
    const queue = [
      { toolCalls: [{ id: 'call_slow', name: 'mcp__test__slow', arguments: '{"ms":8000}' }] },
      { text: 'Checked the result first.' },
    ];
    const server = await startScriptedServer({
      script: (request) => (request.body.stream ? (queue.shift() ?? { text: 'OK' }) : { text: 'A title' }),
    });
    cleanups.push(() => server.close());
    const dataDir = makeTempDir('stepwise-crash-tool-');
    cleanups.push(() => removeDir(dataDir));
    writeMcpConfig(dataDir, { test: testServer({ trusted: true }) });
    // The call must run (for 8 s) when the host is killed: with plan review on (the
    // default) it would be held at once for want of a plan, racing the kill.
    seedPlanReviewOff(dataDir);
    const env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-crash-test', STEPWISE_MODEL: 'scripted' };
    const start = async () => {
      const host = await startHostChild(dataDir, env);
      cleanups.push(() => host.kill());
      const api = await connectHost(host);
      cleanups.push(() => api.close());
      return { host, api };
    };

    const first = await start();
    const { id } = await first.api.call('conversations:create', { title: 'In flight' });
    // The reply that makes the call is stored complete: its call runs next (it takes 8 s).
    const running = first.api.next(
      'messages:changed',
      (e) => e.message.status === 'complete' && !!e.message.toolCalls?.some((c) => c.id === 'call_slow'),
    );
    await first.api.call('messages:send', { conversationId: id, content: 'Run the slow job.' });
    await running;
    await first.host.kill();

    const { api } = await start();
    const status = await api.call('chat:status', { conversationId: id });
    expect(status.error?.retryable).toBe(true);
    const idle = api.next('chat:status', (s) => s.conversationId === id && !s.running);
    await api.call('chat:retry', { conversationId: id });
    await idle;
    const sent = server.streamRequests().at(-1)!.body.messages;
    const result = String(sent.find((m) => m.role === 'tool' && m.tool_call_id === 'call_slow')?.content);
    expect(result).toBe(MISSING_RESULT);
    expect(result).toContain('may have run');
    expect(result).not.toMatch(/did not run|interrupted/);
    const { items } = await api.call('messages:list', { conversationId: id });
    expect(items.at(-1)).toMatchObject({ role: 'assistant', content: 'Checked the result first.' });
    expect(integrityOk(dataDir)).toBe(true);
  });
});
