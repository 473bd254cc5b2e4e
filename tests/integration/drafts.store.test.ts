// The page's draft store (src/renderer/drafts/draftStore.ts) against the real core and
// SQLite: a draft is sent exactly once however often Enter is pressed, only the sent text
// leaves it, a failed send keeps it all, "New conversation" reopens the unsent one, and
// what the store saved comes back in a new page.
import { describe, expect, it } from 'vitest';
import type { StepwiseApi } from '../../src/shared/ipc';
import { createDraftStore } from '../../src/renderer/drafts/draftStore';
import { type ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';

let server: ScriptedServer;
let h: ChatHarness;

chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

/** The page's API, straight onto the core (the transports only carry these calls). */
const api = (): StepwiseApi => ({
  invoke: (name, params) => h.core.dispatch(name, params) as never,
  on: () => () => {},
});

const start = (id: string) => async (content: string) =>
  (await h.core.dispatch('conversations:start', { id, content })).ok;
const userMessages = (id: string) =>
  h
    .messages(id)
    .filter((m) => m.role === 'user')
    .map((m) => m.content);
/** The drafts the core holds: the store saves without waiting, so tests poll this. */
const storedDrafts = async () => (await h.call('drafts:list', {})).map((d) => [d.conversationId, d.content]);

describe('the draft store', () => {
  it('sends a draft once, however often Enter is pressed while the send is under way', async () => {
    const store = createDraftStore(api());
    const id = store.newConversationId();
    store.setText(id, 'Plan a trip');
    const sends = await Promise.all([store.send(id, start(id)), store.send(id, start(id)), store.send(id, start(id))]);
    expect(sends.filter(Boolean)).toHaveLength(1);
    expect(userMessages(id)).toEqual(['Plan a trip']);
    expect(store.get(id)).toEqual({ text: '', sending: false });
    await h.waitIdle(id);
    expect(server.streamRequests()).toHaveLength(1);
  });

  it('keeps what was typed while the send was under way, and only that', async () => {
    const store = createDraftStore(api());
    const id = store.newConversationId();
    store.setText(id, 'First part');
    await store.send(id, async (text) => {
      const ok = await start(id)(text);
      store.setText(id, `${text} second part`);
      return ok;
    });
    expect(store.get(id).text).toBe('second part');
    await expect.poll(storedDrafts).toEqual([[id, 'second part']]);
  });

  it('keeps the whole text when the send fails, and "New conversation" reopens it', async () => {
    const store = createDraftStore(api());
    const taken = (await h.newConversation('Taken')).id;
    const id = store.newConversationId();
    expect(store.newConversationId()).toBe(id);
    store.setText(id, 'Keep me');
    let during = '';
    const ok = await store.send(id, async (text) => {
      // While the first send is under way, "New conversation" opens a fresh one.
      during = store.newConversationId();
      // Sent under an id that is taken: refused, nothing stored.
      const sent = await start(taken)(text);
      store.startFailed(id);
      return sent;
    });
    expect(ok).toBe(false);
    expect(during).not.toBe(id);
    expect(store.get(id)).toEqual({ text: 'Keep me', sending: false });
    // The fresh one holds no text, so the failed one is what "New conversation" reopens.
    expect(store.newConversationId()).toBe(id);
    expect(userMessages(taken)).toEqual([]);

    expect(await store.send(id, start(id))).toBe(true);
    store.startedNew(id);
    expect(store.newConversationId()).not.toBe(id);
  });

  it('gives a new page the drafts the last one saved', async () => {
    const first = createDraftStore(api());
    const stored = (await h.newConversation('Stored')).id;
    const fresh = first.newConversationId();
    first.setText(stored, 'Half a thought');
    first.setText(fresh, 'A new idea');
    first.flush();
    await expect.poll(async () => (await storedDrafts()).length).toBe(2);

    const second = createDraftStore(api());
    expect(second.isReady()).toBe(false);
    await second.load();
    expect(second.isReady()).toBe(true);
    expect(second.get(stored).text).toBe('Half a thought');
    expect(second.get(fresh).text).toBe('A new idea');
    expect(second.newConversationId()).toBe(fresh);
  });
});
