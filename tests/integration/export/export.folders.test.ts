// Folders through export and import: a conversation's JSON names its folder and an import
// files it there again (reusing or making the folder by name); a folder exports all its
// conversations at once, as Markdown or as a `stepwise.conversations` file that imports
// whole into the same folder. Files from before folders still import.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationExport, ConversationsExport } from '../../../src/shared/exportFormat';
import { makeTempDir, removeDir } from '../../support/tempDir';
import { startCore, type TestCore } from './exportFixtures';

let dir: string;
let app: TestCore;

beforeEach(() => {
  dir = makeTempDir('stepwise-folders-');
  app = startCore(dir);
});

afterEach(() => {
  app.core.close();
  removeDir(dir);
});

function text(result: { kind: string; text?: string }): string {
  if (result.kind !== 'download' || result.text === undefined)
    throw new Error(`expected a download, got ${result.kind}`);
  return result.text;
}

async function say(conversationId: string, content: string) {
  app.core.messages.insert({ conversationId, role: 'user', content, origin: 'user' });
}

describe('folders in exports', () => {
  it('round-trip a conversation’s folder through JSON, reusing the folder of that name or making it', async () => {
    const work = await app.call('folders:create', { name: 'Work' });
    const { id } = await app.call('conversations:create', { title: 'Quarterly plan' });
    await app.call('conversations:setFolder', { id, folderId: work.id });
    const json = text(await app.call('export:conversation', { conversationId: id, format: 'json' }));
    expect(ConversationExport.parse(JSON.parse(json)).conversation.folder).toBe('Work');

    const again = await app.call('import:conversation', { content: json });
    if (again.kind !== 'imported') throw new Error('not imported');
    expect((await app.call('conversations:get', { id: again.conversationId })).folderId).toBe(work.id);

    // In a data directory without the folder, the import makes it.
    await app.call('folders:delete', { id: work.id });
    const made = await app.call('import:conversation', { content: json });
    if (made.kind !== 'imported') throw new Error('not imported');
    const folders = await app.call('folders:list', {});
    expect(folders.map((f) => [f.name, f.count])).toEqual([['Work', 1]]);
    expect((await app.call('conversations:get', { id: made.conversationId })).folderId).toBe(folders[0]!.id);

    // A file from before folders has no such field and lands in no folder.
    const old = JSON.parse(json) as { conversation: Record<string, unknown> };
    delete old.conversation.folder;
    const plain = await app.call('import:conversation', { content: JSON.stringify(old) });
    if (plain.kind !== 'imported') throw new Error('not imported');
    expect((await app.call('conversations:get', { id: plain.conversationId })).folderId).toBeNull();
  });

  it('export a whole folder as Markdown and as JSON that imports into the same folder', async () => {
    const trip = await app.call('folders:create', { name: 'Trip to Lisbon' });
    const first = await app.call('conversations:create', { title: 'Flights' });
    const second = await app.call('conversations:create', { title: 'Hotels' });
    const outside = await app.call('conversations:create', { title: 'Groceries' });
    await say(first.id, 'Find flights in May');
    await say(second.id, 'Hotels near Alfama');
    await say(outside.id, 'Milk and eggs');
    for (const id of [first.id, second.id]) await app.call('conversations:setFolder', { id, folderId: trip.id });

    const md = text(await app.call('export:folder', { folderId: trip.id, format: 'md' }));
    expect(md).toMatch(/^# Trip to Lisbon\n/);
    expect(md).toContain('2 conversations');
    expect(md).toContain('# Flights');
    expect(md).toContain('Hotels near Alfama');
    expect(md).not.toContain('Groceries');

    const result = await app.call('export:folder', { folderId: trip.id, format: 'json' });
    if (result.kind !== 'download') throw new Error('not a download');
    expect(result.filename).toMatch(/^stepwise-folder-trip-to-lisbon-\d{4}-\d{2}-\d{2}\.json$/);
    const bundle = ConversationsExport.parse(JSON.parse(result.text));
    expect(bundle.folder).toBe('Trip to Lisbon');
    expect(bundle.conversations.map((c) => c.conversation.title).sort()).toEqual(['Flights', 'Hotels']);

    // Into a fresh data directory: both conversations, with their messages, in the folder again.
    const otherDir = makeTempDir('stepwise-folders-other-');
    const other = startCore(otherDir);
    try {
      const imported = await other.call('import:conversation', { content: result.text });
      if (imported.kind !== 'imported') throw new Error('not imported');
      expect(imported.count).toBe(2);
      const [folder] = await other.call('folders:list', {});
      expect(folder).toMatchObject({ name: 'Trip to Lisbon', count: 2 });
      const rows = await other.call('sidebar:rows', { offset: 0, limit: 50 });
      expect(
        rows.rows.map((r) => (r.kind === 'folder' ? `[${r.folder.name}]` : r.conversation.title)).slice(0, 1),
      ).toEqual(['[Trip to Lisbon]']);
      const titles = rows.rows.flatMap((r) => (r.kind === 'conversation' ? [r.conversation.title] : [])).sort();
      expect(titles).toEqual(['Flights', 'Hotels']);
      const hotels = rows.rows.find((r) => r.kind === 'conversation' && r.conversation.title === 'Hotels');
      if (hotels?.kind !== 'conversation') throw new Error('no Hotels row');
      const messages = await other.call('messages:list', { conversationId: hotels.conversation.id });
      expect(messages.items.map((m) => m.content)).toEqual(['Hotels near Alfama']);
    } finally {
      other.core.close();
      removeDir(otherDir);
    }
  });

  it('import nothing from a folder export with one bad conversation, and say which', async () => {
    const trip = await app.call('folders:create', { name: 'Trip' });
    const { id } = await app.call('conversations:create', { title: 'Flights' });
    await app.call('conversations:setFolder', { id, folderId: trip.id });
    const bundle = JSON.parse(text(await app.call('export:folder', { folderId: trip.id, format: 'json' }))) as {
      conversations: unknown[];
    };
    bundle.conversations.push({ format: 'stepwise.conversation', version: 2 });
    const failure = await app.fail('import:conversation', { content: JSON.stringify(bundle) });
    expect(failure.message).toMatch(/^conversations\.1: This Stepwise conversation export is malformed/);
    expect((await app.call('conversations:list', {})).total).toBe(1);
  });

  it('refuse to export an empty folder, with a reason', async () => {
    const empty = await app.call('folders:create', { name: 'Empty' });
    const failure = await app.fail('export:folder', { folderId: empty.id, format: 'md' });
    expect(failure.message).toContain('“Empty” is empty');
  });
});
