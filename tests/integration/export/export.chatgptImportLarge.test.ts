// A ChatGPT file with 10,000 versions of one reply: the import completes with every version,
// and the host answers other calls while it reads and writes (it gives way every slice).
// Its conversations stay hidden under a staging row until the last transaction shows them
// all; what a crash leaves there is deleted at the next start.
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createImportStaging } from '../../../src/main/core/conversations/importStaging';
import { makeTempDir, removeDir } from '../../support/tempDir';
import { startCore, type TestCore } from './exportFixtures';

let dir: string;
let app: TestCore;

beforeEach(() => {
  dir = makeTempDir('stepwise-chatgpt-large-');
  app = startCore(path.join(dir, 'data'));
});

afterEach(() => {
  app.core.close();
  removeDir(dir);
});

const node = (id: string, parent: string | null, children: string[], role?: string, text?: string) => ({
  id,
  parent,
  children,
  message: role
    ? { id, author: { role }, content: { content_type: 'text', parts: [text ?? id] }, create_time: 1_700_000_000 }
    : null,
});

/** One question with `versions` replies, the last one shown. */
function manyVersions(versions: number): string {
  const replies = Array.from({ length: versions }, (_, i) => `r${i}`);
  const mapping: Record<string, unknown> = {
    root: node('root', null, ['q']),
    q: node('q', 'root', replies, 'user', 'Which colour?'),
  };
  for (const id of replies) mapping[id] = node(id, 'q', [], 'assistant', `Reply ${id}: teal, probably.`);
  return JSON.stringify([{ title: 'Many versions', mapping, current_node: `r${versions - 1}` }]);
}

describe('a ChatGPT import with 10,000 versions of one reply', () => {
  it('completes, and the host answers other calls while it runs', { timeout: 60_000 }, async () => {
    const content = manyVersions(10_000);
    let finished = false;
    const importing = app.call('import:conversation', { content }).finally(() => (finished = true));
    // Answered while the import is still reading or writing.
    expect((await app.call('app:info', {})).host).toBeTruthy();
    expect(finished).toBe(false);
    const listed = await app.call('conversations:list', { offset: 0, limit: 10 });
    expect(listed.items.map((c) => c.title)).not.toContain('Many versions');
    expect(finished).toBe(false);

    const result = await importing;
    if (result.kind !== 'imported') throw new Error('not imported');
    const { items } = await app.call('messages:list', { conversationId: result.conversationId, limit: 10 });
    expect(items.map((m) => m.content)).toEqual(['Which colour?', 'Reply r9999: teal, probably.']);
    expect(items[1]!.version).toEqual({ index: 10_000, count: 10_000 });
    const total = app.db
      .prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ?')
      .get(result.conversationId)!.n;
    expect(total).toBe(10_001);
    // Nothing staged is left, and the conversation is listed.
    expect(app.db.prepare('SELECT COUNT(*) AS n FROM conversations WHERE parent_id = id').get()).toEqual({ n: 0 });
    const after = await app.call('conversations:list', { offset: 0, limit: 10 });
    expect(after.items.map((c) => c.title)).toContain('Many versions');
  });

  it('deletes at start-up what an import stopped by a crash left under its staging row', async () => {
    const staging = createImportStaging(app.db);
    const stagingId = staging.open(Date.now());
    app.db
      .prepare(
        `INSERT INTO conversations (id, title, created_at, updated_at, pinned, title_source, parent_id)
         VALUES ('half', 'Half imported', 1, 1, 0, 'user', ?)`,
      )
      .run(stagingId);
    app.db
      .prepare(
        "INSERT INTO messages (conversation_id, role, content, created_at, chosen, shown) VALUES ('half', 'user', 'Partly', 1, 1, 1)",
      )
      .run();
    // Not listed while it is staged.
    expect((await app.call('conversations:list', { offset: 0, limit: 10 })).items).toEqual([]);
    app.core.close();

    app = startCore(path.join(dir, 'data'));
    const count = (sql: string) => (app.db.prepare(sql).get() as { n: number }).n;
    expect(count('SELECT COUNT(*) AS n FROM conversations')).toBe(0);
    expect(count('SELECT COUNT(*) AS n FROM messages')).toBe(0);
  });
});
