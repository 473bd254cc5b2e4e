// A server with 2,000 tools: the conversation still works. At most MCP_TOOL_CAP MCP tools
// go with a request (hosted APIs refuse more than 128), a notice names the server and the
// tools left out, and Settings marks them as not offered. Nothing blames the user's message.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { MCP_TOOL_CAP } from '../../src/main/core/mcp/mcpToolSync';
import { startChatCore } from '../support/chatHarness';
import { testServer, writeMcpConfig } from '../support/mcpFixtures';
import { startScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

it('offers at most the cap of MCP tools, says which were left out, and answers', async () => {
  const server = await startScriptedServer({ script: [{ text: 'Hello there' }] });
  cleanups.push(() => server.close());
  const root = makeTempDir('stepwise-many-tools-');
  cleanups.push(() => removeDir(root));
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(dataDir);
  writeMcpConfig(dataDir, { big: testServer({ env: { MANY_TOOLS: '2000' } }) });
  const h = startChatCore(server, { dataDir });
  cleanups.push(() => h.close());

  const conversation = await h.newConversation('Many tools');
  const { status } = await h.sendAndWait(conversation.id, 'Hi');
  expect(status.error).toBeNull();
  expect(h.messages(conversation.id).map((m) => m.content)).toEqual(['Hi', 'Hello there']);

  const tools = server.streamRequests().at(-1)!.body.tools ?? [];
  expect(tools.length).toBeLessThanOrEqual(128);
  expect(tools.filter((t) => t.function.name.startsWith('mcp__big__'))).toHaveLength(MCP_TOOL_CAP);

  const notices = await h.call('notices:list', {});
  const cap = notices.find((n) => n.id === 'mcp-tool-cap');
  expect(cap?.text).toMatch(/^1,\d{3} MCP tools are not offered to the model: at most 100 MCP tools go with a request/);
  expect(cap?.text).toContain('from "big" (1,');
  expect(cap?.text).toContain('Settings → Tools (MCP)');

  const view = (await h.call('mcp:get', {})).servers.find((s) => s.name === 'big')!;
  expect(view.tools).toHaveLength(2000 + view.tools.filter((t) => !t.name.startsWith('bulk_')).length);
  expect(view.tools.filter((t) => t.offered)).toHaveLength(MCP_TOOL_CAP);
});
