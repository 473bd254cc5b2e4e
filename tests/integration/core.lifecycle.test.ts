// Every module releases what it subscribed to and what it holds open: a core created and
// closed 100 times leaves no listener on any emitter (shared/event.ts counts them), none
// left for its emitter's disposal to drop (each module released its own, before the
// modules it follows went), and no timer, watcher, socket or handle behind it.
import { afterAll, expect, it } from 'vitest';
import { createNodeCore } from '../../src/main/core/createNodeCore';
import { liveListeners, orphanedListeners } from '../../src/shared/event';
import { makeTempDir, removeDir } from '../support/tempDir';

// An address nothing listens on: no request of a test may leave the machine.
const OFFLINE_ENV = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-offline' };

const dir = makeTempDir('stepwise-lifecycle-');
afterAll(() => removeDir(dir));

/** The kinds of resource keeping the event loop alive, counted (Timeout, FSEventWrap, TCPServerWrap…). */
function openHandles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

async function cycle(): Promise<number> {
  const core = createNodeCore({ dataDir: dir, env: OFFLINE_ENV });
  const created = await core.dispatch('conversations:create', { title: 'Lifecycle' });
  if (!created.ok) throw new Error(created.error.message);
  const listening = liveListeners();
  await core.close();
  return listening;
}

it('a core created and closed 100 times leaves 0 listeners and 0 open handles', async () => {
  const listenersBefore = liveListeners();
  const orphansBefore = orphanedListeners();
  const handlesBefore = openHandles();
  for (let i = 0; i < 100; i++) {
    const listening = await cycle();
    // While open, the modules do follow events: the count below is not trivially zero.
    expect(listening).toBeGreaterThan(listenersBefore);
    expect(liveListeners()).toBe(listenersBefore);
    expect(orphanedListeners()).toBe(orphansBefore);
  }
  expect(liveListeners()).toBe(listenersBefore);
  // A closed watcher or socket leaves the list in the event loop's close phase, after
  // close() returned. Compared kind by kind: more of a kind than before is a leak (the
  // test runner's own timers may come and go meanwhile).
  const leaked = () => Object.entries(openHandles()).filter(([kind, count]) => count > (handlesBefore[kind] ?? 0));
  // The runner's own come and go more slowly on a busy machine: the poll's limit is a bound.
  await expect.poll(leaked, { timeout: 15_000 }).toEqual([]);
}, 120_000);
