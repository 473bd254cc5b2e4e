// mcp.json in the formats users already have, pasted blocks, masking, and what Settings
// shows of a server.
import { describe, expect, it } from 'vitest';
import {
  editServer,
  entryFromInput,
  parseConfig,
  parsePasted,
  type ServerConfig,
} from '../../src/main/core/mcp/mcpConfig';
import { launchLine, redactStderr } from '../../src/main/core/mcp/mcpView';
import { convertResult } from '../../src/main/core/mcp/mcpResults';
import { elicitationQuestion, elicitationResult } from '../../src/main/core/mcp/mcpElicit';
import { maskSecret, McpServerInput } from '../../src/shared/mcp';

const servers = (text: string): ServerConfig[] => {
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.servers;
};

describe('parseConfig', () => {
  it('reads Claude Desktop / Cursor mcpServers with Cline keys', () => {
    const [fs, remote] = servers(
      JSON.stringify({
        mcpServers: {
          fs: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
            env: { A: '1' },
            disabled: true,
            alwaysAllow: ['read_file'],
            timeout: 5,
          },
          remote: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer abc' } },
        },
      }),
    );
    expect(fs).toMatchObject({
      name: 'fs',
      transport: 'stdio',
      command: 'npx',
      enabled: false,
      alwaysAllow: ['read_file'],
      timeoutMs: 5000,
      env: { A: '1' },
    });
    expect(remote).toMatchObject({
      transport: 'http',
      url: 'https://example.com/mcp',
      enabled: true,
      timeoutMs: 60_000,
    });
  });

  it("reads VS Code's servers with type", () => {
    const list = servers(
      JSON.stringify({
        servers: {
          a: { type: 'stdio', command: 'x' },
          b: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
          c: { type: 'http', url: 'http://h/mcp' },
        },
      }),
    );
    expect(list.map((s) => s.transport)).toEqual(['stdio', 'sse', 'http']);
  });

  it('names the line of a JSON error and the server of a bad entry', () => {
    const broken = parseConfig('{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}');
    expect(broken).toMatchObject({ ok: false, error: expect.stringMatching(/line 3/) });
    expect(parseConfig(JSON.stringify({ mcpServers: { a: { args: [] } } }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/"a" needs a "command"/),
    });
    expect(parseConfig(JSON.stringify({ mcpServers: { a: { type: 'ws', url: 'ws://x' } } }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/type must be/),
    });
    expect(parseConfig(JSON.stringify({ mcpServers: { a: { type: 'http', url: 'file:///etc' } } }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/http\(s\) "url"/),
    });
    expect(parseConfig('')).toMatchObject({ ok: true, servers: [] });
  });

  it('keeps keys it does not know when editing', () => {
    const parsed = parseConfig(JSON.stringify({ other: 1, mcpServers: { a: { command: 'x', note: 'mine' } } }));
    if (!parsed.ok) throw new Error(parsed.error);
    const next = editServer(parsed.raw, 'a', (entry) => ({ ...entry, disabled: true }));
    expect(next).toEqual({ other: 1, mcpServers: { a: { command: 'x', note: 'mine', disabled: true } } });
    const entry = entryFromInput(
      McpServerInput.parse({ name: 'a', transport: 'stdio', command: 'y' }),
      next.mcpServers!.a,
      false,
    );
    expect(entry).toEqual({ command: 'y', args: [], note: 'mine', disabled: true });
  });
});

describe('parsePasted', () => {
  it('accepts a whole file, a bare map, or the "name": {...} fragment from a README', () => {
    const whole = parsePasted('{"mcpServers": {"a": {"command": "x"}}}');
    const bare = parsePasted('{"a": {"command": "x"}}');
    const fragment = parsePasted('"a": {"command": "x", "args": ["-y"]}');
    for (const result of [whole, bare, fragment])
      expect(result).toMatchObject({ ok: true, entries: { a: { command: 'x' } } });
    expect(parsePasted('{"a": {"args": []}}')).toMatchObject({ ok: false });
    expect(parsePasted('not json')).toMatchObject({ ok: false, error: expect.stringMatching(/not valid JSON/) });
    expect(parsePasted('{}')).toMatchObject({ ok: false, error: 'The pasted JSON names no servers.' });
  });
});

describe('secrets in Settings', () => {
  it('masks values, keeping the scheme and the last four characters', () => {
    expect(maskSecret('Bearer sk-live-abcdefgh1234')).toBe('Bearer ••••1234');
    expect(maskSecret('ghp_0123456789abcd')).toBe('••••abcd');
    expect(maskSecret('short')).toBe('••••');
  });

  it('shows the exact command line with env values masked, and redacts them from stderr', () => {
    const [config] = servers(
      JSON.stringify({
        mcpServers: {
          gh: { command: 'npx', args: ['-y', 'server github', '/tmp'], env: { GITHUB_TOKEN: 'ghp_0123456789abcd' } },
        },
      }),
    );
    expect(launchLine(config)).toBe("GITHUB_TOKEN=••••abcd npx -y 'server github' /tmp");
    expect(redactStderr(['using token ghp_0123456789abcd'], config)).toEqual(['using token ••••abcd']);
  });
});

describe('convertResult', () => {
  it('prefers structuredContent, names images and resources, and keeps isError', () => {
    const result = convertResult({
      content: [
        { type: 'text', text: '{"t": 1}' },
        { type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' },
      ],
      structuredContent: { t: 1 },
    });
    expect(result.text).toBe('{"t":1}\n[Image 1: image/png, 0.0 KB, shown to the user]');
    expect(result.images).toEqual([{ mimeType: 'image/png', data: 'aGVsbG8=' }]);
    expect(convertResult({ content: [], isError: true })).toMatchObject({
      isError: true,
      text: 'The tool reported an error without details.',
    });
  });
});

describe('elicitation as a question', () => {
  const params = {
    message: 'Who are you?',
    requestedSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string' as const, description: 'Your name' },
        age: { type: 'integer' as const },
        agree: { type: 'boolean' as const },
        color: { type: 'string' as const, enum: ['red', 'blue'] },
      },
      required: ['name'],
    },
  };

  it('lists the fields and reads name: value lines or JSON', () => {
    const question = elicitationQuestion('test', params);
    expect(question.text).toMatch(/^The MCP server "test" asks: Who are you\? Answer with one "name: value" line/);
    expect(question.details[0]).toEqual({ label: 'name (required)', value: 'string · Your name' });
    expect(elicitationResult(params, { kind: 'text', text: 'name: Ada\nage: 36\nagree: yes\ncolor: blue' })).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, agree: true, color: 'blue' },
    });
    expect(elicitationResult(params, { kind: 'text', text: '{"name": "Ada", "age": 36}' })).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36 },
    });
  });

  it('declines, cancels, and cancels an answer that does not fit', () => {
    expect(elicitationResult(params, { kind: 'action', actionId: 'decline' })).toEqual({ action: 'decline' });
    expect(elicitationResult(params, { kind: 'cancelled' })).toEqual({ action: 'cancel' });
    expect(elicitationResult(params, { kind: 'text', text: 'age: 36' })).toEqual({ action: 'cancel' });
    expect(elicitationResult(params, { kind: 'text', text: 'name: Ada\ncolor: green' })).toEqual({ action: 'cancel' });
  });

  it('takes a one-field answer as it is', () => {
    const one = {
      message: 'Pick a number',
      requestedSchema: { type: 'object' as const, properties: { n: { type: 'number' as const } } },
    };
    expect(elicitationResult(one, { kind: 'text', text: '42' })).toEqual({ action: 'accept', content: { n: 42 } });
  });
});
