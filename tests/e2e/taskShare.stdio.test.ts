// The built stdio MCP server (out/main/mcp.js, what `npm run -s mcp` runs) driven by a
// real SDK client over stdio: read-only from the database while Stepwise is not running,
// forwarded to the running app's endpoint (writes included, under the client's name) while it is.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { makeTempDir, removeDir } from '../support/tempDir';
import { callJson, freePort, resultText } from '../support/taskShareClient';

const root = path.resolve(import.meta.dirname, '../..');
const mcpJs = path.join(root, 'out/main/mcp.js');

let dir: string;
let dataDir: string;
let conversationId: string;

async function stdioClient(name: string) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [mcpJs, '--data-dir', dataDir],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stderr: 'pipe',
    }),
  );
  return client;
}

async function withCore<T>(share: boolean, body: (core: ReturnType<typeof createNodeCore>) => Promise<T>): Promise<T> {
  const core = createNodeCore({ dataDir, env: {} });
  try {
    if (share) {
      const port = await freePort();
      const updated = await core.dispatch('settings:update', { patch: { shareTaskLists: true, taskSharePort: port } });
      if (!updated.ok) throw new Error(updated.error.message);
      await core.taskShare.settled();
    }
    return await body(core);
  } finally {
    await core.close();
  }
}

beforeAll(async () => {
  dir = makeTempDir('stepwise-mcp-stdio-');
  dataDir = path.join(dir, 'data');
  await withCore(false, async (core) => {
    const created = await core.dispatch('conversations:create', { title: 'Stdio work' });
    if (!created.ok) throw new Error(created.error.message);
    conversationId = (created.value as { id: string }).id;
    for (const title of ['Read', 'Write']) await core.dispatch('tasks:add', { conversationId, title });
  });
});

afterAll(() => removeDir(dir));

describe('npm run -s mcp', () => {
  it('serves the lists read-only from the database while Stepwise is not running', async () => {
    const client = await stdioClient('stdio-reader');
    try {
      const { lists } = await callJson<{ lists: Array<{ conversationId: string; progress: string }> }>(
        client,
        'list_task_lists',
        {},
      );
      expect(lists).toEqual([expect.objectContaining({ conversationId, progress: '0/2' })]);
      const list = await callJson<{ tasks: Array<{ title: string }> }>(client, 'get_task_list', { conversationId });
      expect(list.tasks.map((t) => t.title)).toEqual(['Read', 'Write']);
      const write = resultText(
        await client.callTool({ name: 'update_task', arguments: { conversationId, taskId: 1, status: 'completed' } }),
      );
      expect(write).toEqual({
        isError: true,
        text: expect.stringContaining('Stepwise is not running; task lists are read-only'),
      });
    } finally {
      await client.close();
    }
  });

  it("forwards to the running app, so writes go through it under the client's name", async () => {
    await withCore(true, async (core) => {
      const client = await stdioClient('stdio-writer');
      try {
        const list = await callJson<{ tasks: Array<{ status: string }> }>(client, 'update_task', {
          conversationId,
          taskId: 1,
          status: 'completed',
        });
        expect(list.tasks[0].status).toBe('completed');
        expect(core.tasks.get(conversationId)!.tasks[0].status).toBe('completed');
        const actors = core.tasks.store.eventsAfter(conversationId, 0).map((e) => e.actor);
        expect(actors).toContain('mcp:stdio-writer');
      } finally {
        await client.close();
      }
    });
  });
});
