// A server entry written into mcp.json by hand, that Stepwise has not run before, stays
// off until the user turns it on in Settings; a notice names it with the command it would
// run. Servers configured before the first start keep running (an upgrade switches none
// off), and a hand-made change to an allowed server's command asks again.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { ChatHarness } from '../support/chatHarness';
import { NODE, TEST_SERVER, testServer, writeMcpConfig, mcpCorePerTest } from '../support/mcpFixtures';

const start = mcpCorePerTest('stepwise-mcp-hand-');
let h: ChatHarness;

const enabled = () => Object.fromEntries(h.core.mcp.state().servers.map((s) => [s.name, s.enabled]));
const notice = () => h.core.notices.list().find((n) => n.id === 'mcp-new-servers')?.text;

it('keeps a hand-written new server off, names its command, and runs it once turned on', async () => {
  const started = await start({ before: testServer() });
  ({ h } = started);
  const { dataDir } = started;
  expect(enabled()).toEqual({ before: true });

  const from = h.events.length;
  writeMcpConfig(dataDir, { before: testServer(), sneaky: testServer({ args: [TEST_SERVER, '--sneaky'] }) });
  await h.waitForEvent('mcp:changed', (state) => state.servers.some((s) => s.name === 'sneaky'), { from });
  expect(enabled()).toEqual({ before: true, sneaky: false });
  expect(notice()).toBe(
    `mcp.json has a server you have not turned on in Stepwise: "sneaky" (runs: ${NODE} ${TEST_SERVER} --sneaky). ` +
      'It stays off until you check the command and turn it on in Settings → Tools (MCP).',
  );
  // The file itself is as the user wrote it.
  expect(
    JSON.parse(fs.readFileSync(path.join(dataDir, 'mcp.json'), 'utf8')).mcpServers.sneaky.disabled,
  ).toBeUndefined();

  await h.call('mcp:setEnabled', { name: 'sneaky', enabled: true });
  expect(enabled()).toEqual({ before: true, sneaky: true });
  expect(notice()).toBeUndefined();

  // Its command changed by hand: off again until allowed again.
  const again = h.events.length;
  writeMcpConfig(dataDir, { before: testServer(), sneaky: testServer({ args: [TEST_SERVER, '--other'] }) });
  await h.waitForEvent('mcp:changed', (state) => state.servers.some((s) => s.name === 'sneaky' && !s.enabled), {
    from: again,
  });
  expect(notice()).toContain('"sneaky" (runs: ');
});
