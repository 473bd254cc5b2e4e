// The Settings → Tools (MCP) calls against a real core and mcp.json: add (disabled),
// paste (disabled whatever it says), masked secrets kept on save, rename, tool switches,
// restart, remove.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatCore, type ChatHarness } from '../support/chatHarness';
import { testServer } from '../support/mcpFixtures';

let h: ChatHarness;

afterEach(async () => {
  await h?.close();
});

const file = () => JSON.parse(fs.readFileSync(path.join(h.dataDir, 'mcp.json'), 'utf8'));

describe('Settings → Tools (MCP)', () => {
  it('adds servers disabled, keeps masked secrets, renames, switches tools, removes', async () => {
    h = startChatCore(null);
    const secret = 'ghp_0123456789abcdefXYZ9';
    const { command, args } = testServer() as { command: string; args: string[] };
    let state = await h.call('mcp:saveServer', {
      server: { name: 'test', transport: 'stdio', command, args, env: { GITHUB_TOKEN: secret } },
    });
    expect(state.servers[0]).toMatchObject({
      name: 'test',
      enabled: false,
      env: { GITHUB_TOKEN: '••••XYZ9' },
      state: 'stopped',
    });
    expect(state.servers[0].launch).toBe(`GITHUB_TOKEN=••••XYZ9 ${command} ${args.join(' ')}`);
    expect(JSON.stringify(state)).not.toContain(secret);
    expect(file().mcpServers.test).toMatchObject({ command, args, env: { GITHUB_TOKEN: secret }, disabled: true });
    expect((fs.statSync(path.join(h.dataDir, 'mcp.json')).mode & 0o777).toString(8)).toBe('600');

    // Saving the form as shown (masked) keeps the stored secret; a new value replaces it.
    state = await h.call('mcp:saveServer', {
      previousName: 'test',
      server: {
        name: 'tools',
        transport: 'stdio',
        command,
        args,
        env: { GITHUB_TOKEN: '••••XYZ9', OTHER: 'x' },
        timeoutSec: 5,
      },
    });
    expect(state.servers.map((s) => s.name)).toEqual(['tools']);
    expect(file().mcpServers).toEqual({
      tools: { command, args, env: { GITHUB_TOKEN: secret, OTHER: 'x' }, timeout: 5, disabled: true },
    });

    state = await h.call('mcp:setEnabled', { name: 'tools', enabled: true });
    state = await h.call('mcp:restart', { name: 'tools' });
    expect(state.servers[0]).toMatchObject({ state: 'ready', enabled: true });
    expect(h.core.tools.has('mcp__tools__fail')).toBe(true);
    state = await h.call('mcp:setToolEnabled', { name: 'tools', tool: 'fail', enabled: false });
    expect(state.servers[0].tools.find((t) => t.name === 'fail')!.enabled).toBe(false);
    expect(h.core.tools.has('mcp__tools__fail')).toBe(false);
    expect(h.core.tools.has('mcp__tools__read_note')).toBe(true);
    expect(file().mcpServers.tools.disabledTools).toEqual(['fail']);

    state = await h.call('mcp:removeServer', { name: 'tools' });
    expect(state.servers).toEqual([]);
    expect(h.core.tools.has('mcp__tools__read_note')).toBe(false);
    expect(file().mcpServers).toEqual({});
  });

  it('imports a pasted block with every server disabled, and refuses bad or duplicate pastes', async () => {
    h = startChatCore(null);
    const pasted =
      '"one": {"command": "npx", "args": ["-y", "pkg"], "disabled": false}, "two": {"url": "https://example.com/mcp"}';
    const { state, added } = await h.call('mcp:import', { text: pasted });
    expect(added).toEqual(['one', 'two']);
    expect(state.servers.map((s) => [s.name, s.enabled, s.launch])).toEqual([
      ['one', false, 'npx -y pkg'],
      ['two', false, 'https://example.com/mcp'],
    ]);
    expect((await h.callError('mcp:import', { text: '{"one": {"command": "x"}}' })).message).toMatch(
      /Already configured: one/,
    );
    expect((await h.callError('mcp:import', { text: '{"x": {"type": "ws"}}' })).message).toMatch(/type must be/);
    expect((await h.callError('mcp:restart', { name: 'one' })).message).toMatch(/is disabled/);
    expect((await h.callError('mcp:setEnabled', { name: 'nope', enabled: true })).code).toBe('not_found');
  });
});
