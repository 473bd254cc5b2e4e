// A tool call's outcome is recorded with its result, not read from the text: a tool that
// ran and answered "The user denied this call." (or "cancelled…", "Not run…") is done.
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { resultOutcome } from '../../src/renderer/chat/toolSummary';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { testServer, writeMcpConfig } from '../support/mcpFixtures';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';

let server: ScriptedServer;
let h: ChatHarness;
let root: string;

afterEach(async () => {
  await h?.close();
  await server?.close();
  removeDir(root);
});

it('records ok for a tool that ran, whatever its text says', async () => {
  root = makeTempDir('stepwise-mcp-outcome-');
  const dataDir = path.join(root, 'data');
  writeMcpConfig(dataDir, { test: testServer({ trusted: true }) });
  server = await startScriptedServer();
  h = startChatCore(server, { dataDir });
  const texts = ['The user denied this call.', 'cancelled by the weather', 'Not run yet, but it ran'];
  server.push(
    { toolCalls: texts.map((text, i) => ({ id: `call_${i}`, name: 'mcp__test__say', arguments: JSON.stringify({ text }) })) },
    { toolCalls: [{ id: 'call_9', name: 'mcp__test__fail', arguments: '{}' }] },
    { text: 'Done.' },
  );
  const conversation = await h.newConversation('Outcomes');
  await h.sendAndWait(conversation.id, 'Say things.');
  const results = (await h.call('messages:list', { conversationId: conversation.id })).items.filter((m) => m.role === 'tool');
  expect(results.map((m) => [m.content, m.outcome])).toEqual([...texts.map((t) => [t, 'ok']), [expect.stringContaining('the disk is full'), 'error']]);
  expect(results.map(resultOutcome)).toEqual(['ok', 'ok', 'ok', 'error']);
});
