// Task lists that outlive Stop and restarts (core/continuity): the state the header reads,
// "Continue remaining tasks", and a run cut off by a quit read back as interrupted.
import { describe, expect, it } from 'vitest';
import {
  autoMessages,
  autopilotConversation,
  autopilotPerTest,
  plan,
  type AutopilotServer,
} from '../support/autopilotServer';
import { startChatCore, type ChatHarness } from '../support/chatHarness';

const STEPS = ['Collect data', 'Write summary', 'Send report'];

let s: AutopilotServer;
let h: ChatHarness;
autopilotPerTest((server, harness) => {
  s = server;
  h = harness;
});

const kind = async (harness: ChatHarness, id: string) =>
  (await harness.call('continuity:get', { conversationId: id })).kind;

async function planned(): Promise<string> {
  const { id } = await h.newConversation('Continuity');
  s.model.push(plan(STEPS, ['in_progress', 'pending', 'pending']), { text: 'Started on the data.' });
  await h.sendAndWait(id, 'Do the report.');
  return id;
}

describe('a turn that ends with tasks left while Autopilot is off', () => {
  it('is paused (nobody pressed Stop), and Continue sends the agent on at the current task through a quiet message', async () => {
    const id = await planned();
    await h.waitForEvent('continuity:changed', (e) => e.conversationId === id && e.kind === 'paused');
    expect(await kind(h, id)).toBe('paused');

    s.model.push({ text: 'Still collecting.' });
    const from = h.events.length;
    expect((await h.call('continuity:resume', { conversationId: id })).kind).toBeNull();
    await h.waitIdle(id, from);
    expect(autoMessages(h, id)).toEqual([`NEXT_TODO: Collect data`]);
    const sent = s.modelRequests().at(-1)!.body.messages;
    expect(sent.at(-1)).toMatchObject({ role: 'user', content: `NEXT_TODO: Collect data` });
    // Tasks are still left, and Autopilot is off: paused again (the continue message is kind `continue`).
    expect(h.messages(id).filter((m) => m.kind === 'continue')).toHaveLength(1);
    await h.waitForEvent('continuity:changed', (e) => e.conversationId === id && e.kind === 'paused', { from });
  });

  it('is not stopped when Autopilot carries on', async () => {
    const id = await autopilotConversation(h);
    s.model.push(plan(STEPS.slice(0, 1), ['completed']), { text: 'All done.' });
    await h.sendAndWait(id, 'Do it.');
    expect(await kind(h, id)).toBeNull();
  });

  it('refuses to continue a conversation without unfinished tasks, and sends nothing', async () => {
    const { id } = await h.newConversation('Nothing to do');
    const error = await h.callError('continuity:resume', { conversationId: id });
    expect(error).toMatchObject({ code: 'conflict', message: expect.stringContaining('no unfinished tasks') });
    expect(h.messages(id)).toEqual([]);
  });
});

describe('Stop', () => {
  it('mid-reply leaves the list stopped', async () => {
    const { id } = await h.newConversation('Stop');
    s.model.push(plan(STEPS, ['in_progress', 'pending', 'pending']), {
      text: 'Collecting '.repeat(200),
      chunkSize: 4,
      chunkDelayMs: 10,
    });
    await h.call('messages:send', { conversationId: id, content: 'Do the report.' });
    await h.waitForEvent('messages:streamed', (e) => e.conversationId === id && !!e.content && e.content.at > 20);
    expect(await kind(h, id)).toBeNull();
    await h.call('chat:stop', { conversationId: id });
    await h.waitForEvent('continuity:changed', (e) => e.conversationId === id && e.kind === 'stopped');
    expect(await kind(h, id)).toBe('stopped');
  });
});

describe('a quit mid-reply', () => {
  it('opens as interrupted, nothing resumes by itself, and Continue goes on', async () => {
    const { id } = await h.newConversation('Quit');
    s.model.push(plan(STEPS, ['in_progress', 'pending', 'pending']), {
      text: 'Collecting '.repeat(300),
      chunkSize: 4,
      chunkDelayMs: 10,
    });
    await h.call('messages:send', { conversationId: id, content: 'Do the report.' });
    await h.waitForEvent('messages:streamed', (e) => e.conversationId === id && !!e.content && e.content.at > 20);
    const requests = s.modelRequests().length;
    await h.core.close();

    const again = startChatCore(s.server, { dataDir: h.dataDir });
    try {
      expect(await kind(again, id)).toBe('interrupted');
      expect(s.modelRequests()).toHaveLength(requests);
      s.model.push({ text: 'Back on the data.' });
      const from = again.events.length;
      await again.call('continuity:resume', { conversationId: id });
      await again.waitIdle(id, from);
      expect(autoMessages(again, id)).toEqual([`NEXT_TODO: Collect data`]);
      await again.waitForEvent('continuity:changed', (e) => e.conversationId === id && e.kind === 'paused', { from });
    } finally {
      await again.close();
    }
  });

  it('with a worker left running opens as interrupted', async () => {
    const { id } = await h.newConversation('Worker');
    h.core.db
      .prepare(
        `INSERT INTO workers (id, conversation_id, number, owner, task_seq, description, expected_output, status, result, created_at, finished_at)
         VALUES (?, ?, 1, 'worker-1', NULL, 'Look it up', 'An answer', 'running', NULL, 1, NULL)`,
      )
      .run((await h.newConversation('child')).id, id);
    await h.core.close();
    const again = startChatCore(s.server, { dataDir: h.dataDir });
    try {
      expect(await kind(again, id)).toBe('interrupted');
    } finally {
      await again.close();
    }
  });
});
