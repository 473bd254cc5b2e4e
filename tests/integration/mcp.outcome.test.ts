// A tool call's outcome is recorded with its result, not read from the text: a tool that
// ran and answered "The user denied this call." (or "cancelled…", "Not run…") is done.
import { expect, it } from 'vitest';
import { resultOutcome } from '../../src/renderer/chat/toolSummary';
import type { ChatHarness } from '../support/chatHarness';
import { testServer, mcpCorePerTest } from '../support/mcpFixtures';
import type { ScriptedServer } from '../support/scriptedServer';

const start = mcpCorePerTest('stepwise-mcp-outcome-');
let server: ScriptedServer;
let h: ChatHarness;

it('records ok for a tool that ran, whatever its text says', async () => {
  const started = await start({ test: testServer({ trusted: true }) });
  ({ server, h } = started);
  const texts = ['The user denied this call.', 'cancelled by the weather', 'Not run yet, but it ran'];
  server.push(
    {
      toolCalls: texts.map((text, i) => ({
        id: `call_${i}`,
        name: 'mcp__test__say',
        arguments: JSON.stringify({ text }),
      })),
    },
    { toolCalls: [{ id: 'call_9', name: 'mcp__test__fail', arguments: '{}' }] },
    { text: 'Done.' },
  );
  const conversation = await h.newConversation('Outcomes');
  await h.sendAndWait(conversation.id, 'Say things.');
  const results = (await h.call('messages:list', { conversationId: conversation.id })).items.filter(
    (m) => m.role === 'tool',
  );
  expect(results.map((m) => [m.content, m.outcome])).toEqual([
    ...texts.map((t) => [t, 'ok']),
    [expect.stringContaining('the disk is full'), 'error'],
  ]);
  expect(results.map(resultOutcome)).toEqual(['ok', 'ok', 'ok', 'error']);
});
