// Migration 24 and the import of an older export: messages that were marked by their
// text become kinds with payloads, show the same transcript, and send the model exactly
// the text it got before.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/db/openDatabase';
import { createMessageRepo } from '../../src/main/core/conversations/messageRepo';
import { buildApiMessages } from '../../src/main/core/context/apiMessages';
import { parseConversationData } from '../../src/main/core/export/conversationImport';
import { writeImportedConversation } from '../../src/main/core/export/conversationWrite';
import { conversationExport, readConversation } from '../../src/main/core/export/conversationJson';
import { conversationMarkdown } from '../../src/main/core/export/conversationMarkdown';
import { createExportReader } from '../../src/main/core/export/exportReader';
import { plumbingLine } from '../../src/shared/messageKinds';
import { makeTempDir, removeDir } from '../support/tempDir';

const A = '11111111-1111-4111-8111-111111111111';

/** Old messages as an older Stepwise wrote them: role, origin, text. */
const OLD: Array<[string, string, string]> = [
  ['user', 'user', 'Plan the trip'],
  ['assistant', 'system', 'Here is a plan.'],
  [
    'user',
    'user',
    [
      'PLAN_CHANGES_REQUESTED:',
      'The user reviewed the plan and asks for changes. Revise the task list with your task tools, then end your turn so the user can review it again. Do not start the work yet.',
      'The user edited the list:',
      '- Renamed task 2 from “Draft” to “Draft briefly”',
      'Comments:',
      '- On task 1 “Collect”: Only Q3,',
      'and only Europe.',
      '- On the plan: Keep it short.',
      'The list now reads:',
      '1. Collect',
      '2. Draft briefly',
    ].join('\n'),
  ],
  ['assistant', 'system', 'Revised.'],
  [
    'user',
    'auto',
    'PLAN_APPROVED: revision 2 · 2 tasks\nThe user approved the plan. Carry it out now, starting with task 1 “Collect”.',
  ],
  ['assistant', 'system', 'Collected.'],
  ['user', 'auto', 'NEXT_TODO: Draft briefly'],
  [
    'system',
    'system',
    'PLAN_CHANGED: Added task 3 “Book” (revision 3)\nBefore:\n1. Collect\n2. Draft briefly\nAfter:\n1. Collect\n2. Draft briefly\n3. Book',
  ],
  ['assistant', 'system', 'Drafting.'],
  [
    'user',
    'system',
    '[Stopped at 14:32:15] Main agent: was streaming. Worker 1 "List: EC2": was running a tool. Task list: 3 tasks (1 pending, 2 in progress, 0 completed).',
  ],
  ['user', 'worker', 'Worker 1 (task 2) finished:\n\nNine apples.'],
  ['system', 'system', 'Changed by claude-code over MCP: marked task 2 completed.'],
  // An approval whose text the fields would not rebuild (a hand-edited database): kept for the model.
  [
    'user',
    'auto',
    'PLAN_APPROVED: revision 4 · 1 tasks\nThe user approved the plan. Carry it out now, starting with task 1 “Go”.\nThe user commented:\nstray line\n- On the plan: ok',
  ],
  ['user', 'user', 'PLAN_APPROVED: typed by the user'],
];

const KINDS = [
  'user',
  'assistant',
  'changes_requested',
  'assistant',
  'plan_approved',
  'assistant',
  'next_task',
  'plan_changed',
  'assistant',
  'stop_note',
  'worker_result',
  'external_change',
  'plan_approved',
  'user',
];

let dir: string;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => removeDir(dir));

/** The user-role texts the model reads, in order. */
const modelTexts = (messages: Parameters<typeof buildApiMessages>[1]) =>
  buildApiMessages('system', messages, 1e9)
    .filter((m) => m.role === 'user')
    .map((m) => m.content);

describe('migration 24', () => {
  it('turns prefixed messages into kinds, and the model reads the same text as before', () => {
    const old = openDatabase(dir, { targetVersion: 22 }).db;
    old.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, 0, 0)').run(A, 'Trip');
    const insert = old.prepare(
      'INSERT INTO messages (conversation_id, role, origin, content, created_at, parent_id) VALUES (?, ?, ?, ?, 0, ?)',
    );
    let parent: number | null = null;
    for (const [role, origin, content] of OLD) {
      parent = Number(insert.run(A, role, origin, content, parent).lastInsertRowid);
    }
    old.close();
    const before = OLD.filter(([role]) => role === 'user').map(([, , content]) => content);

    const { db } = openDatabase(dir);
    try {
      const messages = createMessageRepo(db).all(A);
      expect(messages.map((m) => m.kind)).toEqual(KINDS);
      expect(modelTexts(messages)).toEqual(before);
      // Nothing stored says PLAN_ or NEXT_TODO any more, but the user's own words.
      const stored = messages.filter((m) => m.kind !== 'user').map((m) => m.content);
      expect(stored.join('\n')).not.toMatch(/PLAN_|NEXT_TODO|\[Stopped at/);

      const [changes, approved, next, changed, stop, worker, external, kept] = messages
        .filter((m) => m.plumbing)
        .map((m) => m.plumbing!);
      expect(changes).toEqual({
        kind: 'changes_requested',
        edits: [{ kind: 'renamed', id: 2, title: 'Draft briefly', from: 'Draft' }],
        comments: [
          { taskId: 1, taskTitle: 'Collect', text: 'Only Q3,\nand only Europe.' },
          { taskId: null, taskTitle: null, text: 'Keep it short.' },
        ],
        tasks: [
          { id: 1, title: 'Collect' },
          { id: 2, title: 'Draft briefly' },
        ],
      });
      // The transcript shows what it showed before: the same dividers and lines.
      expect(plumbingLine(approved)).toBe('Plan approved · 2 tasks · revision 2');
      expect(plumbingLine(next)).toBe('Continuing: Draft briefly');
      expect(plumbingLine(changed)).toBe('Plan changed: Added task 3 “Book” (revision 3)');
      expect(changed).toMatchObject({
        before: ['Collect', 'Draft briefly'],
        after: ['Collect', 'Draft briefly', 'Book'],
      });
      expect(stop).toMatchObject({
        clock: '14:32:15',
        agents: [
          { label: 'Main agent', activity: 'streaming' },
          { label: 'Worker 1 "List: EC2"', activity: 'tool' },
        ],
        tasks: { pending: 1, inProgress: 2, completed: 0, cancelled: 0 },
      });
      expect(stop.legacyText).toBeUndefined();
      expect(worker).toEqual({ kind: 'worker_result', worker: 1, taskId: 2, verb: 'finished', body: 'Nine apples.' });
      expect(plumbingLine(external)).toBe('Changed by claude-code over MCP: marked task 2 completed.');
      expect(kept).toMatchObject({ kind: 'plan_approved', revision: 4, first: { id: 1, title: 'Go' } });
      expect(kept.legacyText).toBe(OLD[12][2]);
    } finally {
      db.close();
    }
  });
});

describe('import of an older export', () => {
  it('reads prefixed messages as kinds; the export written again carries kind and payload', () => {
    const { db } = openDatabase(dir);
    try {
      const file = parseConversationData({
        format: 'stepwise.conversation',
        version: 2,
        exportedAt: '2026-01-01T00:00:00.000Z',
        conversation: {
          id: A,
          title: 'Trip',
          titleSource: 'user',
          pinned: false,
          autopilot: null,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
        messages: OLD.map(([role, origin, content], i) => ({
          id: i + 1,
          role,
          content,
          createdAt: '2026-01-01T00:00:00.000Z',
          toolCalls: null,
          toolCallId: null,
          toolName: null,
          status: 'complete',
          error: null,
          origin,
        })),
        taskLists: [],
        workers: [],
      });
      const { conversationId } = writeImportedConversation(db, file, 0);
      const messages = createMessageRepo(db).all(conversationId);
      expect(messages.map((m) => m.kind)).toEqual(KINDS);
      expect(modelTexts(messages)).toEqual(OLD.filter(([role]) => role === 'user').map(([, , c]) => c));

      const snapshot = readConversation(createExportReader(db), conversationId);
      const json = conversationExport(snapshot, 0);
      expect(json.messages[4]).toMatchObject({
        kind: 'plan_approved',
        content: '',
        payload: { revision: 2, taskCount: 2, first: { id: 1, title: 'Collect' }, comments: [] },
      });
      const written = JSON.stringify(json.messages.slice(0, 12));
      expect(written).not.toMatch(/PLAN_|NEXT_TODO|\[Stopped at/);
      const markdown = conversationMarkdown(snapshot, 0);
      expect(markdown).toContain('_Plan approved · 2 tasks · revision 2 · ');
      expect(markdown).toContain('- On task 1 “Collect”: Only Q3, and only Europe.');
      // Only the two messages the user wrote (and the one typed PLAN_APPROVED) are "You".
      expect(markdown.match(/^## You /gm)).toHaveLength(2);

      // A file with kinds imports them as they are; a bad payload is refused, naming the message.
      const again = parseConversationData(JSON.parse(JSON.stringify(json)) as object);
      const copy = writeImportedConversation(db, again, 0);
      expect(
        createMessageRepo(db)
          .all(copy.conversationId)
          .map((m) => m.plumbing),
      ).toEqual(messages.map((m) => m.plumbing));
      const broken = JSON.parse(JSON.stringify(json)) as { messages: Array<Record<string, unknown>> };
      broken.messages[4].payload = { revision: 'two' };
      expect(() => parseConversationData(broken)).toThrow(/message 5: its plan_approved payload is not valid/);
    } finally {
      db.close();
    }
  });
});
