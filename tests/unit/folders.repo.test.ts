// The folder repository on a real SQLite file: names, moving, deleting (conversations stay),
// collapse, and the sidebar's rows (pinned first, folders by name, then the rest).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo, type ConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createFolderRepo, type FolderRepo } from '../../src/main/core/folders/folderRepo';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
let db: Db;
let conversations: ConversationRepo;
let folders: FolderRepo;

beforeEach(() => {
  dir = makeTempDir();
  db = openDatabase(dir).db;
  let clock = 1_000;
  const now = () => ++clock;
  conversations = createConversationRepo(db, now);
  folders = createFolderRepo(db, now);
});

afterEach(() => {
  db.close();
  removeDir(dir);
});

/** Every sidebar row as text: `[Folder]` for a header, `title` or `  title` under a folder. */
function sidebar(pageSize = 1000): string[] {
  const out: string[] = [];
  let total = Infinity;
  for (let offset = 0; offset < total; offset += pageSize) {
    const page = folders.rows(offset, pageSize, (ids) => conversations.summaries(ids));
    total = page.total;
    for (const row of page.rows) {
      if (row.kind === 'folder') out.push(`[${row.folder.name}${row.folder.collapsed ? ' +' : ''}]`);
      else out.push(`${row.underFolder ? '  ' : ''}${row.conversation.title}`);
    }
  }
  return out;
}

describe('folder repository', () => {
  it('creates, renames and refuses a second folder of the same name in any case', () => {
    const work = folders.create('Work');
    expect(work).toMatchObject({ name: 'Work', collapsed: false, count: 0 });
    expect(() => folders.create('work')).toThrow('A folder named “Work” already exists');
    const home = folders.create('Home');
    expect(() => folders.rename(home.id, 'WORK')).toThrow('already exists');
    expect(folders.rename(home.id, 'home').name).toBe('home');
    expect(folders.rename(work.id, 'WORK').name).toBe('WORK');
    expect(folders.list().map((f) => f.name)).toEqual(['home', 'WORK']);
    expect(() => folders.rename('00000000-0000-4000-8000-000000000000', 'x')).toThrow('not found');
  });

  it('lists pinned conversations first, then each folder by name with its own, then the rest', () => {
    const a = conversations.create('a');
    const b = conversations.create('b');
    const c = conversations.create('c');
    const d = conversations.create('d');
    conversations.create('e');
    const zeta = folders.create('zeta');
    const alpha = folders.create('Alpha');
    folders.create('empty');
    folders.move(a.id, zeta.id);
    folders.move(b.id, alpha.id);
    folders.move(c.id, alpha.id);
    folders.move(d.id, zeta.id);
    conversations.setPinned(d.id, true);
    expect(sidebar()).toEqual(['d', '[Alpha]', '  c', '  b', '[empty]', '[zeta]', '  a', 'e']);
    // The same rows come out whatever the page size.
    expect(sidebar(1)).toEqual(sidebar());
    expect(sidebar(3)).toEqual(sidebar());
    expect(folders.get(zeta.id).count).toBe(2);
    expect(conversations.get(a.id)?.folderId).toBe(zeta.id);

    // Collapsed: the header stays and its conversations are hidden; a pinned one stays on top.
    folders.setCollapsed(zeta.id, true);
    expect(sidebar()).toEqual(['d', '[Alpha]', '  c', '  b', '[empty]', '[zeta +]', 'e']);
    expect(sidebar(2)).toEqual(sidebar());

    // Out of a folder again.
    folders.move(c.id, null);
    expect(sidebar()).toEqual(['d', '[Alpha]', '  b', '[empty]', '[zeta +]', 'e', 'c']);
  });

  it('deletes a folder without deleting its conversations, and tells which moved out', () => {
    const work = folders.create('Work');
    const a = conversations.create('a');
    const b = conversations.create('b');
    folders.move(a.id, work.id);
    folders.move(b.id, work.id);
    expect(folders.delete(work.id).sort()).toEqual([a.id, b.id].sort());
    expect(folders.list()).toEqual([]);
    expect(conversations.get(a.id)?.folderId).toBeNull();
    expect(conversations.get(b.id)?.title).toBe('b');
    expect(sidebar()).toEqual(['b', 'a']);
    expect(() => folders.move(a.id, work.id)).toThrow('not found');
  });

  it('keeps collapse and membership across a reopen of the database', () => {
    const work = folders.create('Work');
    const a = conversations.create('a');
    folders.move(a.id, work.id);
    folders.setCollapsed(work.id, true);
    db.close();
    db = openDatabase(dir).db;
    const again = createFolderRepo(db);
    expect(again.list()).toEqual([{ id: work.id, name: 'Work', collapsed: true, count: 1 }]);
    expect(again.members(work.id)).toEqual([a.id]);
  });

  it('finds a folder again by name in any case when an import files a conversation', () => {
    const work = folders.create('Work');
    expect(folders.ensure('WORK').id).toBe(work.id);
    const made = folders.ensure('Travel');
    expect(made.name).toBe('Travel');
    expect(folders.list().map((f) => f.name)).toEqual(['Travel', 'Work']);
  });
});
