// The export reader composes the owners' readers (conversations, instructions, folders,
// task lists, ledger, attachments, workers, plans): what it joins in memory must match
// what the stored rows say, including the cases no other export test reaches — a list
// parked on a hidden branch, plan revisions numbered by their list, a deleted folder.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo } from '../../src/main/core/conversations/messageRepo';
import { createExportReader } from '../../src/main/core/export/exportReader';
import { exportConversation } from '../../src/main/core/export/exportModule';
import { makeTempDir, removeDir } from '../support/tempDir';

const T0 = Date.UTC(2026, 4, 1, 9, 30);
let dir: string;
let db: Db;

beforeEach(() => {
  dir = makeTempDir('stepwise-export-reader-');
  db = openDatabase(dir).db;
});

afterEach(() => {
  db.close();
  removeDir(dir);
});

function list(
  conversationId: string,
  titles: string[],
  options: { closedAt?: number | null; parkedOn?: number | null } = {},
): number {
  const listId = Number(
    db
      .prepare('INSERT INTO task_lists (conversation_id, created_at, closed_at, parked_on) VALUES (?, ?, ?, ?)')
      .run(conversationId, T0, options.closedAt ?? null, options.parkedOn ?? null).lastInsertRowid,
  );
  titles.forEach((title, i) =>
    db
      .prepare(
        'INSERT INTO tasks (list_id, seq, title, status, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(listId, i + 1, title, 'pending', i, T0, T0),
  );
  return listId;
}

function revision(conversationId: string, listId: number, number: number, createdAt: number) {
  db.prepare(
    'INSERT INTO plan_revisions (conversation_id, list_id, revision, tasks, comments, approved_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  ).run(
    conversationId,
    listId,
    number,
    JSON.stringify([{ id: 1, title: `Step of revision ${number}` }]),
    JSON.stringify({ general: '', tasks: [] }),
    null,
    createdAt,
  );
}

describe('export reader over the owners’ readers', () => {
  it('marks a list parked on a hidden branch, and the Markdown shows the shown branch’s list', () => {
    const conversation = createConversationRepo(db, () => T0).create('Branches');
    const message = createMessageRepo(db, () => T0).insert({
      conversationId: conversation.id,
      role: 'user',
      content: 'Plan it.',
    });
    list(conversation.id, ['Shown branch task'], { closedAt: T0 + 1000 });
    list(conversation.id, ['Hidden branch task'], { closedAt: T0 + 2000, parkedOn: message.id });

    const lists = createExportReader(db).lists(conversation.id, 'history');
    expect(lists.map((l) => [l.number, l.parked, l.tasks.map((t) => t.title)])).toEqual([
      [1, false, ['Shown branch task']],
      [2, true, ['Hidden branch task']],
    ]);
    const markdown = exportConversation(db, conversation.id, 'md', T0).text;
    expect(markdown).toContain('Shown branch task');
    expect(markdown).not.toContain('Hidden branch task');
  });

  it('numbers plan revisions by their list within the conversation and leaves out a revision of a list that is not its own', () => {
    const conversations = createConversationRepo(db, () => T0);
    const other = conversations.create('Other');
    const mine = conversations.create('Mine');
    const otherList = list(other.id, ['Elsewhere']);
    const first = list(mine.id, ['A'], { closedAt: T0 });
    const second = list(mine.id, ['B']);
    revision(mine.id, second, 1, T0 + 3);
    revision(mine.id, first, 1, T0 + 1);
    revision(mine.id, first, 2, T0 + 2);
    revision(mine.id, otherList, 1, T0);
    db.prepare("UPDATE conversations SET plan_review = 'every_plan' WHERE id = ?").run(mine.id);

    const plans = createExportReader(db).plans(mine.id);
    expect(plans.mode).toBe('every_plan');
    expect(plans.revisions.map((r) => [r.list, r.revision, r.tasks[0]!.title])).toEqual([
      [1, 1, 'Step of revision 1'],
      [1, 2, 'Step of revision 2'],
      [2, 1, 'Step of revision 1'],
    ]);
  });

  it('joins each conversation’s instructions and folder name, and none once the folder is deleted', () => {
    const conversations = createConversationRepo(db, () => T0);
    const filed = conversations.create('Filed');
    const loose = conversations.create('Loose');
    db.prepare("INSERT INTO folders (id, name, created_at) VALUES ('f1', 'Launch', ?)").run(T0);
    db.prepare("UPDATE conversations SET folder_id = 'f1' WHERE id = ?").run(filed.id);
    db.prepare('INSERT INTO conversation_instructions (conversation_id, text, updated_at) VALUES (?, ?, ?)').run(
      filed.id,
      'Answer in French.',
      T0,
    );

    const reader = createExportReader(db);
    expect(reader.conversation(filed.id)).toMatchObject({
      title: 'Filed',
      instructions: 'Answer in French.',
      folder: 'Launch',
    });
    expect(reader.conversation(loose.id)).toMatchObject({ title: 'Loose', instructions: '', folder: null });
    expect(reader.conversation('no-such-id')).toBeUndefined();

    db.prepare("DELETE FROM folders WHERE id = 'f1'").run();
    expect(reader.conversations().map((c) => [c.title, c.folder])).toEqual(
      expect.arrayContaining([
        ['Filed', null],
        ['Loose', null],
      ]),
    );
  });
});
