// Crash safety: kill the browser host with SIGKILL while a reply streams, start it again
// on the same data dir. The user's message is intact, the partial reply is there marked
// interrupted (with Retry offered), and SQLite's integrity check passes.
import { afterEach, describe, expect, it } from 'vitest';
import { connectHost, integrityOk, readDb, startHostChild } from '../support/hostChild';
import { startScriptedServer } from '../support/scriptedServer';
import { makeTempDir, removeDir } from '../support/tempDir';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** How much of the assistant's reply the host has saved, read as another process would. */
function savedReplyLength(dataDir: string): number {
  return readDb(dataDir, (db) => {
    const row = db.prepare("SELECT length(content) AS n FROM messages WHERE role = 'assistant'").get() as
      | { n: number }
      | undefined;
    return row?.n ?? 0;
  });
}

describe('a crash while a reply streams', () => {
  it('keeps the message, marks the partial reply interrupted, and leaves a sound database', async () => {
    const words = Array.from({ length: 600 }, (_, i) => `word${i} `);
    const server = await startScriptedServer({ script: [{ text: words, chunkDelayMs: 25 }] });
    cleanups.push(() => server.close());
    const dataDir = makeTempDir('stepwise-crash-');
    cleanups.push(() => removeDir(dataDir));
    const env = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'sk-crash-test', STEPWISE_MODEL: 'scripted' };

    const first = await startHostChild(dataDir, env);
    cleanups.push(() => first.kill());
    const api = await connectHost(first);
    cleanups.push(() => api.close());
    const conversation = await api.call('conversations:create', { title: 'Crash test' });
    await api.call('messages:send', { conversationId: conversation.id, content: 'Tell me a very long story' });
    // Once the host has saved some streamed text, pull the plug.
    await expect.poll(() => savedReplyLength(dataDir)).toBeGreaterThanOrEqual(30);
    await first.kill();

    const second = await startHostChild(dataDir, env);
    cleanups.push(() => second.kill());
    const again = await connectHost(second);
    cleanups.push(() => again.close());
    const { items } = await again.call('messages:list', { conversationId: conversation.id });
    expect(items.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(items[0]).toMatchObject({ content: 'Tell me a very long story', status: 'complete' });
    expect(items[1].status).toBe('interrupted');
    expect(items[1].content.length).toBeGreaterThanOrEqual(30);
    expect(words.join('').startsWith(items[1].content)).toBe(true);
    const status = await again.call('chat:status', { conversationId: conversation.id });
    expect(status).toMatchObject({ running: false, error: { retryable: true } });
    expect(integrityOk(dataDir)).toBe(true);
  });
});
