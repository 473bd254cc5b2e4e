// One tool with an invalid inputSchema leaves the server usable: its other tools are
// offered and run, and a notice names the tool and what is wrong, without a zod dump.
import path from 'node:path';
import { expect, it } from 'vitest';
import type { ChatHarness } from '../support/chatHarness';
import { NODE, mcpCorePerTest } from '../support/mcpFixtures';
import type { ScriptedServer } from '../support/scriptedServer';

const BAD_SERVER = path.resolve(import.meta.dirname, '../support/mcp/badSchemaServer.mjs');

const start = mcpCorePerTest('stepwise-mcp-schema-');
let server: ScriptedServer;
let h: ChatHarness;

it('offers the valid tools and names the invalid one in a notice', async () => {
  const started = await start({ careless: { command: NODE, args: [BAD_SERVER], trusted: true } });
  ({ server, h } = started);
  server.push({ toolCalls: [{ id: 'call_0', name: 'mcp__careless__good', arguments: '{}' }] }, { text: 'Done.' });
  const conversation = await h.newConversation('Schemas');
  await h.sendAndWait(conversation.id, 'Use it.');

  const offered = server.streamRequests()[0].body.tools!.map((t) => t.function.name);
  expect(offered).toContain('mcp__careless__good');
  expect(offered).not.toContain('mcp__careless__broken');
  expect(h.messages(conversation.id).find((m) => m.role === 'tool')?.content).toBe('good ran');
  const state = h.core.mcp.state().servers[0];
  expect(state.state).toBe('ready');
  const notice = h.core.notices.list().find((n) => n.id === 'mcp-tools-invalid-careless');
  expect(notice?.text).toBe(
    'The MCP server "careless" lists a tool Stepwise cannot offer: "broken" (its inputSchema.required is not valid: expected array, received number). Its other tools work; ask the server\'s author to fix it.',
  );
  expect(notice?.text).not.toMatch(/[[{]/);
});
