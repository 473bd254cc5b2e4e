// Fault injection for the writes of the new surfaces: the host, run from source in a
// child process, is killed with SIGKILL at three points each (before, inside and after
// the write's transaction) during a regenerate, a version switch, an attachment store, a
// folder delete and a ChatGPT import. The point is reached deterministically: the host
// kills itself there when STEPWISE_FAULT_POINT names it (src/main/core/faultPoints.ts).
// After a restart nothing acknowledged is lost, nothing is hidden, the contract reports
// the state as it is, and SQLite's integrity check passes.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectHost, integrityOk, readDb, startHostChild, type HostClient } from '../support/hostChild';
import { startScriptedServer, type ScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';

/** Two host starts from source (tsx) per case, on a shared two-core machine. */
const TIMEOUT = 60_000;
const FIXTURE = fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/chatgpt-conversations.json'), 'utf8');

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Run {
  api: HostClient;
  dataDir: string;
  /** Makes the call that reaches the fault point; resolves once the host is dead. */
  crash(call: (api: HostClient) => Promise<unknown>): Promise<void>;
  /** The host started again on the same data, without a fault point. */
  restart(): Promise<HostClient>;
}

async function withFault(point: string, replies: string[] = []): Promise<Run> {
  const server: ScriptedServer = await startScriptedServer({ script: replies.map((text) => ({ text })) });
  cleanups.push(() => server.close());
  const dataDir = makeTempDir('stepwise-fault-');
  cleanups.push(() => removeDir(dataDir));
  const env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-fault-test', STEPWISE_MODEL: 'scripted' };
  const start = async (extra: Record<string, string>) => {
    const host = await startHostChild(dataDir, { ...env, ...extra });
    cleanups.push(() => host.kill());
    const api = await connectHost(host);
    cleanups.push(() => api.close());
    return { host, api };
  };
  const first = await start({ STEPWISE_FAULT_POINT: point });
  return {
    api: first.api,
    dataDir,
    async crash(call) {
      void call(first.api).catch(() => undefined);
      expect(await first.host.exited).toBe('SIGKILL');
    },
    restart: async () => (await start({})).api,
  };
}

async function reply(api: HostClient, conversationId: string, content: string) {
  const idle = api.next('chat:status', (s) => s.conversationId === conversationId && !s.running);
  await api.call('messages:send', { conversationId, content });
  await idle;
}

const shown = async (api: HostClient, conversationId: string) =>
  (await api.call('messages:list', { conversationId })).items.map((m) => [m.role, m.content, m.version?.count ?? 1]);

describe.each(['regenerate:before-hide', 'regenerate:in-hide', 'regenerate:after-hide'])(
  'killed during a regenerate (%s)',
  (point) => {
    it('shows the old reply after a restart', { timeout: TIMEOUT }, async () => {
      const run = await withFault(point, ['The first answer']);
      const conversation = await run.api.call('conversations:create', { title: 'Regenerate' });
      await reply(run.api, conversation.id, 'A question');
      await run.crash((api) => api.call('chat:regenerate', { conversationId: conversation.id }));
      const api = await run.restart();
      expect(await shown(api, conversation.id)).toEqual([
        ['user', 'A question', 1],
        ['assistant', 'The first answer', 1],
      ]);
      expect(integrityOk(run.dataDir)).toBe(true);
    });
  },
);

describe.each(['version:before-switch', 'version:in-switch', 'version:after-switch'])(
  'killed during a version switch (%s)',
  (point) => {
    it('shows one whole version, with the other still reachable', { timeout: TIMEOUT }, async () => {
      const run = await withFault(point, ['Answer one', 'Answer two']);
      const conversation = await run.api.call('conversations:create', { title: 'Versions' });
      await reply(run.api, conversation.id, 'A question');
      const regenerated = run.api.next('chat:status', (s) => s.conversationId === conversation.id && !s.running);
      await run.api.call('chat:regenerate', { conversationId: conversation.id });
      await regenerated;
      const second = (await run.api.call('messages:list', { conversationId: conversation.id })).items[1];
      await run.crash((api) =>
        api.call('messages:showVersion', { conversationId: conversation.id, messageId: second.id, index: 1 }),
      );
      const api = await run.restart();
      const after = await shown(api, conversation.id);
      expect([
        [
          ['user', 'A question', 1],
          ['assistant', 'Answer one', 2],
        ],
        [
          ['user', 'A question', 1],
          ['assistant', 'Answer two', 2],
        ],
      ]).toContainEqual(after);
      // Past the commit the switch holds.
      if (point === 'version:after-switch') expect(after[1][1]).toBe('Answer one');
      expect(integrityOk(run.dataDir)).toBe(true);
    });
  },
);

describe.each(['attachment:before-file', 'attachment:file-written', 'attachment:row-stored'])(
  'killed during an attachment store (%s)',
  (point) => {
    it('keeps the files already sent, and no attachment is left without its bytes', { timeout: TIMEOUT }, async () => {
      // The first store (acknowledged, then sent) passes the point; the second dies there.
      const run = await withFault(`${point}#2`, ['Got it']);
      const conversation = await run.api.call('conversations:create', { title: 'Files' });
      const kept = await run.api.call('attachments:add', {
        name: 'kept.txt',
        mimeType: 'text/plain',
        data: Buffer.from('first file').toString('base64'),
      });
      const idle = run.api.next('chat:status', (s) => s.conversationId === conversation.id && !s.running);
      await run.api.call('messages:send', {
        conversationId: conversation.id,
        content: 'See the file',
        attachments: [kept.id],
      });
      await idle;
      await run.crash((api) =>
        api.call('attachments:add', {
          name: 'new.txt',
          mimeType: 'text/plain',
          data: Buffer.from('second file').toString('base64'),
        }),
      );
      const api = await run.restart();
      const [message] = (await api.call('messages:list', { conversationId: conversation.id })).items;
      expect(message.attachments?.map((a) => a.name)).toEqual(['kept.txt']);
      const rows = readDb(run.dataDir, (db) =>
        db.prepare<[], { sha256: string; name: string }>('SELECT sha256, name FROM attachments').all(),
      );
      for (const row of rows)
        expect(fs.existsSync(path.join(run.dataDir, 'attachments', row.sha256)), row.name).toBe(true);
      expect(integrityOk(run.dataDir)).toBe(true);
    });
  },
);

describe.each(['folder:before-delete', 'folder:in-delete', 'folder:after-delete'])(
  'killed during a folder delete (%s)',
  (point) => {
    it('keeps the conversation, in the folder or out of it, never lost', { timeout: TIMEOUT }, async () => {
      const run = await withFault(point, ['Filed']);
      const conversation = await run.api.call('conversations:create', { title: 'In a folder' });
      await reply(run.api, conversation.id, 'Keep me');
      const folder = await run.api.call('folders:create', { name: 'Work' });
      await run.api.call('conversations:setFolder', { id: conversation.id, folderId: folder.id });
      await run.crash((api) => api.call('folders:delete', { id: folder.id }));
      const api = await run.restart();
      const folders = await api.call('folders:list', {});
      const stored = await api.call('conversations:get', { id: conversation.id });
      // All or nothing: the folder with its conversation, or neither folder nor membership.
      if (folders.length) expect([folders.map((f) => f.name), stored.folderId]).toEqual([['Work'], folder.id]);
      else expect(stored.folderId).toBeNull();
      if (point === 'folder:after-delete') expect(folders).toEqual([]);
      expect(await shown(api, conversation.id)).toEqual([
        ['user', 'Keep me', 1],
        ['assistant', 'Filed', 1],
      ]);
      expect(integrityOk(run.dataDir)).toBe(true);
    });
  },
);

describe.each(['import:before-write', 'import:in-write', 'import:after-write'])(
  'killed during a ChatGPT import (%s)',
  (point) => {
    it('imports the whole file or none of it, and keeps what was there', { timeout: TIMEOUT }, async () => {
      const run = await withFault(point, ['Still here']);
      const existing = await run.api.call('conversations:create', { title: 'Existing' });
      await reply(run.api, existing.id, 'Before the import');
      await run.crash((api) => api.call('import:conversation', { content: FIXTURE }));
      const api = await run.restart();
      const titles = (await api.call('conversations:list', { offset: 0, limit: 50 })).items.map((c) => c.title).sort();
      const whole = ['Existing', 'Sourdough starter', 'Trip to Lisbon'];
      expect([['Existing'], whole]).toContainEqual(titles);
      if (point === 'import:after-write') expect(titles).toEqual(whole);
      expect(await shown(api, existing.id)).toEqual([
        ['user', 'Before the import', 1],
        ['assistant', 'Still here', 1],
      ]);
      expect(integrityOk(run.dataDir)).toBe(true);
    });
  },
);
