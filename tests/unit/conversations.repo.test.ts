// Conversation and message repositories on a real SQLite file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import {
  createConversationRepo,
  DEFAULT_TITLE,
  type ConversationRepo,
} from '../../src/main/core/conversations/conversationRepo';
import { likePattern } from '../../src/main/core/conversations/conversationSearch';
import { createMessageRepo, type MessageRepo } from '../../src/main/core/conversations/messageRepo';
import { makeTempDir, removeDir } from '../support/tempDir';

let dir: string;
let db: Db;
let clock: number;
let conversations: ConversationRepo;
let messages: MessageRepo;

beforeEach(() => {
  dir = makeTempDir();
  db = openDatabase(dir).db;
  clock = 1_000;
  // Every call to now() is one millisecond later, so activity order is deterministic.
  const now = () => ++clock;
  conversations = createConversationRepo(db, now);
  messages = createMessageRepo(db, now);
});

afterEach(() => {
  db.close();
  removeDir(dir);
});

const titles = (page: { items: Array<{ title: string }> }) => page.items.map((c) => c.title);

describe('conversation repository', () => {
  it('creates a conversation with a default or a given title', () => {
    const untitled = conversations.create();
    expect(untitled).toMatchObject({ title: DEFAULT_TITLE, titleSource: 'auto', pinned: false });
    expect(untitled.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(untitled.createdAt).toBe(untitled.updatedAt);

    const named = conversations.create('Garden plan');
    expect(named).toMatchObject({ title: 'Garden plan', titleSource: 'user' });
    expect(conversations.get(named.id)).toEqual(named);
    expect(conversations.get('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('renames, recording who chose the title, without counting it as activity', () => {
    const c = conversations.create();
    const renamed = conversations.rename(c.id, 'Tax return 2025');
    expect(renamed).toMatchObject({ title: 'Tax return 2025', titleSource: 'user', updatedAt: c.updatedAt });
    expect(conversations.rename(c.id, 'Auto title', 'auto')).toMatchObject({ titleSource: 'auto' });
    expect(conversations.rename('00000000-0000-4000-8000-000000000000', 'x')).toBeUndefined();
  });

  it('pins and unpins', () => {
    const c = conversations.create('Pin me');
    expect(conversations.setPinned(c.id, true)?.pinned).toBe(true);
    expect(conversations.summary(c.id)).toMatchObject({ pinned: true, tasks: null });
    expect(conversations.setPinned(c.id, false)?.pinned).toBe(false);
  });

  it('lists pinned conversations first, then by last activity, newest first', () => {
    const a = conversations.create('A');
    const b = conversations.create('B');
    const c = conversations.create('C');
    conversations.create('D');
    expect(titles(conversations.list('', 0, 10))).toEqual(['D', 'C', 'B', 'A']);

    conversations.touch(a.id); // new activity moves A to the top
    expect(titles(conversations.list('', 0, 10))).toEqual(['A', 'D', 'C', 'B']);

    conversations.setPinned(b.id, true);
    conversations.setPinned(c.id, true);
    expect(titles(conversations.list('', 0, 10))).toEqual(['C', 'B', 'A', 'D']);

    conversations.touch(b.id); // activity orders the pinned ones too
    expect(titles(conversations.list('', 0, 10))).toEqual(['B', 'C', 'A', 'D']);
  });

  it('pages through the list without gaps or repeats, reporting the total', () => {
    for (let i = 0; i < 25; i++) conversations.create(`Conversation ${String(i).padStart(2, '0')}`);
    const seen: string[] = [];
    for (let offset = 0; offset < 25; offset += 10) {
      const page = conversations.list('', offset, 10);
      expect(page.total).toBe(25);
      seen.push(...titles(page));
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
    expect(seen[0]).toBe('Conversation 24');
    expect(seen.at(-1)).toBe('Conversation 00');
    expect(conversations.list('', 30, 10)).toEqual({ items: [], total: 25, capped: false });
  });

  it('keeps a stable order when activity times are equal', () => {
    const frozen = createConversationRepo(db, () => 5_000);
    for (let i = 0; i < 6; i++) frozen.create(`Same time ${i}`);
    const once = conversations
      .list('', 0, 3)
      .items.concat(conversations.list('', 3, 3).items)
      .map((c) => c.id);
    expect(new Set(once).size).toBe(6);
    expect(conversations.list('', 0, 6).items.map((c) => c.id)).toEqual(once);
  });

  it('searches titles case-insensitively, ignoring surrounding spaces', () => {
    conversations.create('Holiday in Lisbon');
    conversations.create('lisbon restaurants');
    conversations.create('Budget');
    const found = conversations.list('  LISBON ', 0, 10);
    expect(found.total).toBe(2);
    expect(titles(found).sort()).toEqual(['Holiday in Lisbon', 'lisbon restaurants']);
    expect(conversations.list('nothing like this', 0, 10)).toEqual({ items: [], total: 0, capped: false });
  });

  it('treats LIKE wildcards and the escape character in a search as literal text', () => {
    for (const t of ['50% off', '500 offers', 'snake_case', 'snakeXcase', 'back\\slash', 'backslash'])
      conversations.create(t);
    expect(titles(conversations.list('50%', 0, 10))).toEqual(['50% off']);
    expect(titles(conversations.list('%', 0, 10))).toEqual(['50% off']);
    expect(titles(conversations.list('e_c', 0, 10))).toEqual(['snake_case']);
    expect(titles(conversations.list('_', 0, 10))).toEqual(['snake_case']);
    expect(titles(conversations.list('k\\s', 0, 10))).toEqual(['back\\slash']);
    expect(likePattern('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
  });

  it('deletes a conversation and, through the foreign key, its messages', () => {
    const keep = conversations.create('Keep');
    const drop = conversations.create('Drop');
    messages.insert({ conversationId: keep.id, role: 'user', content: 'stays' });
    messages.insert({ conversationId: drop.id, role: 'user', content: 'goes' });
    expect(conversations.delete(drop.id)).toBe(true);
    expect(conversations.delete(drop.id)).toBe(false);
    expect(conversations.get(drop.id)).toBeUndefined();
    expect(messages.all(drop.id)).toEqual([]);
    expect(messages.all(keep.id).map((m) => m.content)).toEqual(['stays']);
    expect(db.prepare('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 1 });
  });

  it('adds task badges through the lookup the task module installs', () => {
    const c = conversations.create('With tasks');
    conversations.setTaskBadgeLookup((ids) => new Map(ids.map((id) => [id, { done: 1, total: 3 }])));
    expect(conversations.list('', 0, 10).items[0]).toMatchObject({ id: c.id, tasks: { done: 1, total: 3 } });
  });
});

describe('message repository', () => {
  it('stores messages in order with their metadata and pages through them', () => {
    const c = conversations.create('Chat');
    const first = messages.insert({ conversationId: c.id, role: 'user', content: 'Hello\nsecond line' });
    expect(first).toMatchObject({
      role: 'user',
      content: 'Hello\nsecond line',
      status: 'complete',
      origin: 'user',
      toolCalls: null,
    });
    const call = { id: 'call_9', name: 'update_tasks', arguments: '{"tasks":[]}' };
    messages.insert({ conversationId: c.id, role: 'assistant', content: '', toolCalls: [call] });
    messages.insert({
      conversationId: c.id,
      role: 'tool',
      content: 'done',
      toolCallId: 'call_9',
      toolName: 'update_tasks',
    });
    for (let i = 0; i < 7; i++) messages.insert({ conversationId: c.id, role: 'user', content: `m${i}` });

    const all = messages.all(c.id);
    expect(all).toHaveLength(10);
    expect(all[1]).toMatchObject({ role: 'assistant', origin: 'system', toolCalls: [call] });
    expect(all[2]).toMatchObject({ toolCallId: 'call_9', toolName: 'update_tasks' });
    expect(all.map((m) => m.id)).toEqual(all.map((m) => m.id).toSorted((x, y) => x - y));

    const page = messages.list(c.id, 3, 4);
    expect(page.total).toBe(10);
    expect(page.items.map((m) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3']);
  });

  it('updates streaming text and status, then marks replies cut off by a crash as interrupted', () => {
    const c = conversations.create('Stream');
    const reply = messages.insert({ conversationId: c.id, role: 'assistant', content: '', status: 'streaming' });
    expect(messages.update(reply.id, { content: 'Partial' })).toMatchObject({
      content: 'Partial',
      status: 'streaming',
    });
    const recovered = messages.recoverInterrupted();
    expect(recovered.map((m) => [m.id, m.status])).toEqual([[reply.id, 'interrupted']]);
    expect(messages.get(reply.id)).toMatchObject({ content: 'Partial', status: 'interrupted' });
    expect(messages.recoverInterrupted()).toEqual([]);
    expect(messages.update(reply.id, { status: 'error', error: 'Timed out' })).toMatchObject({
      status: 'error',
      error: 'Timed out',
    });
  });

  it('truncates a conversation from a message on, leaving other conversations alone', () => {
    const c = conversations.create('Edit');
    const other = conversations.create('Other');
    const ids = ['one', 'two', 'three'].map(
      (content) => messages.insert({ conversationId: c.id, role: 'user', content }).id,
    );
    messages.insert({ conversationId: other.id, role: 'user', content: 'untouched' });
    expect(messages.truncateFrom(c.id, ids[1])).toBe(2);
    expect(messages.all(c.id).map((m) => m.content)).toEqual(['one']);
    expect(messages.all(other.id).map((m) => m.content)).toEqual(['untouched']);
  });

  it('refuses a message for a conversation that does not exist', () => {
    expect(() =>
      messages.insert({ conversationId: '00000000-0000-4000-8000-000000000000', role: 'user', content: 'orphan' }),
    ).toThrow(/FOREIGN KEY/);
  });
});
