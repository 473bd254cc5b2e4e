// Plain replies through the real openai SDK and SQLite: streaming events, stored
// messages, the request the server received, auto-titles and full-text search.
import { describe, expect, it } from 'vitest';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, TEST_KEY, TEST_MODEL, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let h: ChatHarness;

const perTest = chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

describe('a plain reply', () => {
  it('streams the reply, stores it complete and sends system prompt, history and tools', async () => {
    server.push(
      { text: ['Hello', ' there', ', how', ' can I help?'], chunkDelayMs: 5 },
      { text: 'Friendly greeting exchange' },
    );
    const conversation = await h.newConversation();
    const { message, status } = await h.sendAndWait(conversation.id, 'Hi!');

    expect(message).toMatchObject({ role: 'user', content: 'Hi!', status: 'complete', origin: 'user' });
    expect(status).toEqual({ conversationId: conversation.id, running: false, error: null });

    const stored = h.messages(conversation.id);
    expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Hi!', 'complete'],
      ['assistant', 'Hello there, how can I help?', 'complete'],
    ]);

    // Streaming updates carry the whole text so far, growing, then the final complete row.
    const updates = h.eventsOf('messages:changed').filter((e) => e.message.role === 'assistant');
    expect(updates[0].message.status).toBe('streaming');
    expect(updates.at(-1)!.message).toMatchObject({ status: 'complete', content: 'Hello there, how can I help?' });
    const streamed = updates.filter((u) => u.message.status === 'streaming').map((u) => u.message.content);
    for (let i = 1; i < streamed.length; i++) expect(streamed[i].startsWith(streamed[i - 1])).toBe(true);

    const [request] = server.streamRequests();
    expect(request.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    expect(request.body.model).toBe(TEST_MODEL);
    expect(request.body.stream).toBe(true);
    expect(request.body.messages[0].role).toBe('system');
    expect(request.body.messages[0].content).toContain('Stepwise');
    expect(request.body.messages.slice(1)).toEqual([{ role: 'user', content: 'Hi!' }]);
    const timeTool = request.body.tools?.find((t) => t.function.name === 'get_current_time');
    expect(timeTool?.function.parameters).toMatchObject({
      type: 'object',
      properties: { timeZone: { type: 'string' } },
    });

    const statuses = h.eventsOf('chat:status').filter((s) => s.conversationId === conversation.id);
    expect(statuses[0].running).toBe(true);
    expect(statuses.at(-1)!.running).toBe(false);
  });

  it('batches streaming updates instead of sending one event per chunk', async () => {
    // With a long interval the whole reply arrives inside one window: the row, one early
    // update, then the final message. (The default window is one frame, 16 ms.)
    h = await perTest.restart({ chat: { emitIntervalMs: 60_000 } });
    const chunks = Array.from({ length: 200 }, (_, i) => `w${i} `);
    server.push({ text: chunks });
    const conversation = await h.newConversation('Fixed title');
    await h.sendAndWait(conversation.id, 'Count');
    const updates = h.eventsOf('messages:changed').filter((e) => e.message.role === 'assistant');
    expect(updates.filter((e) => e.message.status === 'streaming').length).toBeLessThanOrEqual(2);
    expect(updates.at(-1)!.message).toMatchObject({ status: 'complete', content: chunks.join('') });
    expect(h.messages(conversation.id)[1].content).toBe(chunks.join(''));
  });

  it('sends the whole history on the next turn', async () => {
    server.push({ text: 'First answer' }, { text: 'A title' }, { text: 'Second answer' });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'First question');
    await h.waitForEvent('conversations:changed', (c) => c.conversation?.title === 'A title');
    await h.sendAndWait(conversation.id, 'Second question');
    const last = server.streamRequests().at(-1)!;
    expect(last.body.messages.slice(1)).toEqual([
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'First answer' },
      { role: 'user', content: 'Second question' },
    ]);
  });

  it('refuses a second send while a reply streams, storing nothing', async () => {
    server.push({ text: Array.from({ length: 40 }, () => 'x'), chunkDelayMs: 20 });
    const conversation = await h.newConversation('Busy');
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: 'one' });
    const error = await h.callError('messages:send', { conversationId: conversation.id, content: 'two' });
    expect(error.code).toBe('conflict');
    expect(error.message).toMatch(/still replying/);
    await h.waitIdle(conversation.id, from);
    expect(
      h
        .messages(conversation.id)
        .filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual(['one']);
  });
});

describe('several conversations at once', () => {
  it('runs one loop per conversation in parallel; a script function routes the requests', async () => {
    server.setScript((request) => {
      const last = request.body.messages.at(-1)?.content ?? '';
      return request.body.stream ? { text: ['Echo: ', String(last)], chunkDelayMs: 30 } : { text: `Title ${last}` };
    });
    const [a, b] = await Promise.all([h.newConversation('A'), h.newConversation('B')]);
    const from = h.events.length;
    await h.call('messages:send', { conversationId: a.id, content: 'alpha' });
    await h.call('messages:send', { conversationId: b.id, content: 'beta' });
    expect(h.core.chat.isRunning(a.id) && h.core.chat.isRunning(b.id)).toBe(true);
    await Promise.all([h.waitIdle(a.id, from), h.waitIdle(b.id, from)]);
    expect(h.messages(a.id).map((m) => m.content)).toEqual(['alpha', 'Echo: alpha']);
    expect(h.messages(b.id).map((m) => m.content)).toEqual(['beta', 'Echo: beta']);
  });
});

describe('auto-title', () => {
  it('asks for a short title after the first exchange', async () => {
    server.push({ text: 'Paris is the capital.' }, { text: '"Capital of France."\nExtra line' });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'What is the capital of France?');
    const changed = await h.waitForEvent(
      'conversations:changed',
      (c) => c.id === conversation.id && c.conversation?.title !== 'New conversation',
    );
    expect(changed.conversation?.title).toBe('Capital of France');
    expect(changed.conversation?.titleSource).toBe('auto');
    const titleRequest = server.chatRequests().find((r) => !r.body.stream)!;
    expect(titleRequest.body.messages[0].content).toMatch(/3 to 6 words/);
    expect(titleRequest.body.messages[1].content).toContain('What is the capital of France?');
  });

  it('keeps a generated title plain text: HTML tags and Markdown are taken out', async () => {
    server.push({ text: 'Done.' }, { text: '<b>Fixing</b> the **login** [bug](https://x.example)<script>x</script>' });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'Fix the login bug');
    const changed = await h.waitForEvent(
      'conversations:changed',
      (c) => c.id === conversation.id && c.conversation?.title !== 'New conversation',
    );
    expect(changed.conversation?.title).toBe('Fixing the login bugx');
    expect(changed.conversation?.title).not.toMatch(/[<>*[\]]/);
  });

  it('falls back to the first words of the message when the title request fails', async () => {
    server.push({ text: 'Sure.' }, { status: 400, errorMessage: 'no titles today' });
    const conversation = await h.newConversation();
    await h.sendAndWait(conversation.id, 'Please explain how rainbows form in the sky after rain');
    const changed = await h.waitForEvent('conversations:changed', (c) => c.conversation?.title !== 'New conversation');
    expect(changed.conversation?.title).toBe('Please explain how rainbows form in…');
  });

  it('leaves a conversation whose first reply was stopped untitled until its next completed reply', async () => {
    server.push({ text: 'Counting '.repeat(400), chunkSize: 4, chunkDelayMs: 10 });
    const conversation = await h.newConversation();
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: 'Count to a thousand slowly' });
    await h.waitForEvent('messages:streamed', (e) => e.conversationId === conversation.id && !!e.content, { from });
    await h.call('chat:stop', { conversationId: conversation.id });
    await h.waitIdle(conversation.id, from);
    expect(server.chatRequests().filter((r) => !r.body.stream)).toHaveLength(0);
    expect((await h.call('conversations:get', { id: conversation.id })).title).toBe('New conversation');

    server.push({ text: 'Fine, to ten then.' }, { text: 'Counting to ten' });
    await h.sendAndWait(conversation.id, 'Just to ten then');
    await h.waitForEvent(
      'conversations:changed',
      (c) => c.id === conversation.id && c.conversation?.title === 'Counting to ten',
      { from },
    );
  });

  it('never overwrites a title the user set', async () => {
    server.push({ text: 'Reply' }, { text: 'Generated title' });
    const conversation = await h.newConversation();
    await h.call('conversations:rename', { id: conversation.id, title: 'My own title' });
    await h.sendAndWait(conversation.id, 'Hello');
    expect(server.chatRequests().filter((r) => !r.body.stream)).toHaveLength(0);
    expect((await h.call('conversations:get', { id: conversation.id })).title).toBe('My own title');
  });
});

describe('search', () => {
  it('finds conversations by message content (full-text) as well as by title', async () => {
    const a = await h.newConversation('Gardening notes');
    const b = await h.newConversation('Cooking');
    const c = await h.newConversation('Unrelated');
    h.core.messages.insert({ conversationId: b.id, role: 'user', content: 'How long do tomatoes need to ripen?' });
    h.core.messages.insert({ conversationId: c.id, role: 'assistant', content: 'Nothing about vegetables here' });
    const byContent = await h.call('conversations:list', { query: 'tomato' });
    expect(byContent.items.map((i) => i.id)).toEqual([b.id]);
    expect(byContent.total).toBe(1);
    const byTitle = await h.call('conversations:list', { query: 'garden' });
    expect(byTitle.items.map((i) => i.id)).toEqual([a.id]);
    const both = await h.call('conversations:list', { query: 'ripen tomatoes' });
    expect(both.items.map((i) => i.id)).toEqual([b.id]);
    // FTS syntax in the search box is just text.
    const odd = await h.call('conversations:list', { query: '"AND OR NEAR(' });
    expect(odd.items).toEqual([]);
  });
});
