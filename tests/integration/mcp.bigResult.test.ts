// A tool result over the 10 MB Stepwise reads from a stdio server: the call fails with
// the size named as the cause (not "it crashed"), the server keeps running with its
// state, and the next call on it works.
import { expect, it } from 'vitest';
import type { ChatHarness } from '../support/chatHarness';
import { testServer, mcpCorePerTest } from '../support/mcpFixtures';
import type { ScriptedServer } from '../support/scriptedServer';

const start = mcpCorePerTest('stepwise-mcp-big-');
let server: ScriptedServer;
let h: ChatHarness;

it('names the size of a result over 10 MB and keeps the server running', async () => {
  const started = await start({ test: testServer({ trusted: true }) });
  ({ server, h } = started);
  server.push(
    { toolCalls: [{ id: 'call_0', name: 'mcp__test__huge', arguments: '{"mb":10.5}' }] },
    { toolCalls: [{ id: 'call_1', name: 'mcp__test__read_note', arguments: '{}' }] },
    { text: 'Done.' },
  );
  const conversation = await h.newConversation('Big result');
  await h.sendAndWait(conversation.id, 'Fetch it all.');
  const pid = h.core.mcp.server('test')!.pid();
  const [big, note] = h.messages(conversation.id).filter((m) => m.role === 'tool');
  expect(big.content).toMatch(
    /^Tool huge on MCP server "test" returned a result of 10\.5 MB, over the 10 MB Stepwise reads from a server/,
  );
  expect(big.content).not.toMatch(/crash|exited/);
  // The same server process answered the next call.
  expect(note.content).toBe('note contents');
  expect(h.core.mcp.server('test')!.pid()).toBe(pid);
  expect(h.core.mcp.state().servers[0].state).toBe('ready');
  expect(h.core.notices.list().some((n) => n.id === 'mcp-server-test')).toBe(false);
});
