// Per-conversation instructions: stored (also for a new conversation before its first
// send), exported in JSON and Markdown, restored by import, and files from before they
// existed still import; deleting a conversation or abandoning a new one forgets them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationExport } from '../../../src/shared/exportFormat';
import { makeTempDir, removeDir } from '../../support/tempDir';
import { exportedText, startCore, type TestCore } from './exportFixtures';

let dir: string;
let app: TestCore;

beforeEach(() => {
  dir = makeTempDir('stepwise-instructions-');
  app = startCore(dir);
});

afterEach(() => {
  app.core.close();
  removeDir(dir);
});

const exported = (id: string, format: 'json' | 'md') => exportedText(app, id, format);

const stored = () =>
  (
    app.db.prepare('SELECT conversation_id FROM conversation_instructions ORDER BY conversation_id').all() as Array<{
      conversation_id: string;
    }>
  ).map((r) => r.conversation_id);

describe('conversation instructions', () => {
  it('round-trip through JSON export and import, and show in the Markdown export', async () => {
    const { id } = await app.call('conversations:create', { title: 'French only' });
    expect(
      (await app.call('instructions:set', { conversationId: id, text: '  Answer in French.\n<b>Short.</b>  ' })).text,
    ).toBe('Answer in French.\n<b>Short.</b>');
    expect((await app.call('instructions:get', { conversationId: id })).text).toBe('Answer in French.\n<b>Short.</b>');

    const json = await exported(id, 'json');
    expect(ConversationExport.parse(JSON.parse(json)).conversation.instructions).toBe(
      'Answer in French.\n<b>Short.</b>',
    );
    const md = await exported(id, 'md');
    expect(md).toContain('## Instructions\n\nAnswer in French.');
    expect(md).toContain('\\<b>Short.\\</b>'); // raw HTML is escaped, as in messages

    const imported = await app.call('import:conversation', { content: json });
    if (imported.kind !== 'imported') throw new Error('not imported');
    expect((await app.call('instructions:get', { conversationId: imported.conversationId })).text).toBe(
      'Answer in French.\n<b>Short.</b>',
    );

    // A file written before instructions existed has no such field: it imports without them.
    const old = JSON.parse(json) as { conversation: Record<string, unknown> };
    delete old.conversation.instructions;
    const fromOld = await app.call('import:conversation', { content: JSON.stringify(old) });
    if (fromOld.kind !== 'imported') throw new Error('not imported');
    expect((await app.call('instructions:get', { conversationId: fromOld.conversationId })).text).toBe('');
    expect(JSON.parse(await exported(fromOld.conversationId, 'json')).conversation).not.toHaveProperty('instructions');
  });

  it('keep a new conversation’s instructions until it is stored, and forget deleted and abandoned ones', async () => {
    const draft = '11111111-1111-4111-8111-111111111111';
    const other = '22222222-2222-4222-8222-222222222222';
    await app.call('instructions:set', { conversationId: draft, text: 'Be brief.' });
    // Opening another new conversation abandons the first one's instructions.
    await app.call('instructions:set', { conversationId: other, text: 'Be thorough.' });
    expect(stored()).toEqual([other]);

    const { id } = await app.call('conversations:create', { title: 'Kept' });
    await app.call('instructions:set', { conversationId: id, text: 'Stay.' });
    expect(stored().sort()).toEqual([other, id].sort());
    await app.call('instructions:set', { conversationId: other, text: '   ' });
    expect(stored()).toEqual([id]);
    await app.call('conversations:delete', { id });
    expect(stored()).toEqual([]);

    const error = await app.fail('instructions:set', { conversationId: id, text: 'x'.repeat(20_001) });
    expect(error.message).toMatch(/at most 20000 characters/);
  });
});
