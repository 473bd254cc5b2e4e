// A new conversation's first send through the real core, SQLite and the scripted server:
// `conversations:start` stores the conversation under the page's draft id together with its
// first message (or nothing at all), the reply and the auto-title follow as for any send,
// and drafts are kept per conversation until they are sent or the conversation is deleted.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, startChatCore, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let h: ChatHarness;

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

const count = (sql: string) => (h.core.db.prepare(sql).get() as { n: number }).n;

describe('starting a conversation with its first message', () => {
  it('stores the conversation and the message in one step, then replies and titles it', async () => {
    server.push({ text: 'Here is a plan.' }, { text: 'Garden planning' });
    const id = randomUUID();
    const { conversation, message } = await h.call('conversations:start', { id, content: 'Help me plan a garden' });
    expect(conversation).toMatchObject({ id, title: 'New conversation', titleSource: 'auto', pinned: false });
    expect(message).toMatchObject({
      conversationId: id,
      role: 'user',
      content: 'Help me plan a garden',
      origin: 'user',
    });

    await h.waitIdle(id);
    expect(h.messages(id).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Help me plan a garden'],
      ['assistant', 'Here is a plan.'],
    ]);
    // The model got the message once, as the only user message.
    const asked = server
      .streamRequests()
      .map((r) => r.body.messages.filter((m) => m.role === 'user').map((m) => m.content));
    expect(asked).toEqual([['Help me plan a garden']]);

    const titled = await h.waitForEvent(
      'conversations:changed',
      (c) => c.id === id && c.conversation?.title === 'Garden planning',
    );
    expect(titled.kind).toBe('updated');
    const created = h.eventsOf('conversations:changed').filter((c) => c.id === id && c.kind === 'created');
    expect(created).toHaveLength(1);
    expect(created[0].conversation).toMatchObject({ id, title: 'New conversation' });
    expect((await h.call('conversations:list', {})).items.map((c) => c.id)).toEqual([id]);
  });

  it('keeps the Autopilot choice made before the first send', async () => {
    const on = randomUUID();
    const unset = randomUUID();
    await h.call('conversations:start', { id: on, content: 'First', autopilot: true });
    await h.call('conversations:start', { id: unset, content: 'Second' });
    expect((await h.call('autopilot:get', { conversationId: on })).enabled).toBe(true);
    // Without a choice the conversation follows the default setting (off).
    expect(h.core.db.prepare('SELECT autopilot FROM conversations WHERE id = ?').get(unset)).toEqual({
      autopilot: null,
    });
    await h.waitIdle(on);
    await h.waitIdle(unset);
  });

  it('refuses a taken id, /clear and an empty message, storing nothing', async () => {
    const id = randomUUID();
    await h.call('conversations:start', { id, content: 'Once' });
    await h.waitIdle(id);
    const before = {
      conversations: count('SELECT COUNT(*) AS n FROM conversations'),
      messages: count('SELECT COUNT(*) AS n FROM messages'),
    };

    const taken = await h.callError('conversations:start', { id, content: 'Twice' });
    expect(taken).toMatchObject({ code: 'conflict', message: expect.stringContaining('already been started') });
    const cleared = await h.callError('conversations:start', { id: randomUUID(), content: '/clear' });
    expect(cleared).toMatchObject({ code: 'conflict', message: expect.stringContaining('nothing to clear') });
    const empty = await h.callError('conversations:start', { id: randomUUID(), content: '   ' });
    expect(empty).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('message must not be empty'),
    });
    const notUuid = await h.callError('conversations:start', { id: 'draft-1', content: 'Hello' });
    expect(notUuid.message).toContain('conversation id must be a UUID');

    expect(count('SELECT COUNT(*) AS n FROM conversations')).toBe(before.conversations);
    expect(count('SELECT COUNT(*) AS n FROM messages')).toBe(before.messages);
    expect(server.streamRequests()).toHaveLength(1);
  });
});

describe('drafts', () => {
  it('keeps one draft per conversation, newest first, and forgets an emptied one', async () => {
    const a = (await h.newConversation('A')).id;
    const b = (await h.newConversation('B')).id;
    await h.call('drafts:save', { conversationId: a, content: 'Draft for A' });
    await h.call('drafts:save', { conversationId: b, content: 'Draft for B' });
    await h.call('drafts:save', { conversationId: a, content: 'Draft for A, longer' });
    const listed = await h.call('drafts:list', {});
    expect(listed.map((d) => [d.conversationId, d.content, d.stored])).toEqual(
      expect.arrayContaining([
        [a, 'Draft for A, longer', true],
        [b, 'Draft for B', true],
      ]),
    );
    expect(listed).toHaveLength(2);

    expect(await h.call('drafts:save', { conversationId: b, content: '' })).toEqual({ saved: false });
    expect((await h.call('drafts:list', {})).map((d) => d.conversationId)).toEqual([a]);
  });

  it('keeps the draft of one new conversation, which its first send stores under the same id', async () => {
    const older = randomUUID();
    const fresh = randomUUID();
    await h.call('drafts:save', { conversationId: older, content: 'An abandoned start' });
    await h.call('drafts:save', { conversationId: fresh, content: 'The new one' });
    // Only one new conversation is open at a time: the older draft of one is gone.
    expect((await h.call('drafts:list', {})).map((d) => [d.conversationId, d.stored])).toEqual([[fresh, false]]);

    await h.call('conversations:start', { id: fresh, content: 'The new one' });
    await h.waitIdle(fresh);
    expect((await h.call('drafts:list', {})).map((d) => [d.conversationId, d.stored])).toEqual([[fresh, true]]);
    await h.call('drafts:save', { conversationId: fresh, content: '' });
    expect(await h.call('drafts:list', {})).toEqual([]);
  });

  it('forgets a deleted conversation’s draft and survives a restart of the core', async () => {
    const kept = (await h.newConversation('Kept')).id;
    const gone = (await h.newConversation('Gone')).id;
    await h.call('drafts:save', { conversationId: kept, content: 'Still here' });
    await h.call('drafts:save', { conversationId: gone, content: 'Deleted with it' });
    await h.call('conversations:delete', { id: gone });
    expect((await h.call('drafts:list', {})).map((d) => d.content)).toEqual(['Still here']);

    h.core.close();
    const again = startChatCore(server, { dataDir: h.dataDir });
    try {
      expect((await again.call('drafts:list', {})).map((d) => [d.conversationId, d.content])).toEqual([
        [kept, 'Still here'],
      ]);
    } finally {
      again.close();
    }
  });

  it('refuses a draft over the limit with a clear message', async () => {
    const error = await h.callError('drafts:save', { conversationId: randomUUID(), content: 'x'.repeat(400_001) });
    expect(error).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('draft must be at most 400000 characters'),
    });
  });
});
