// "Load, then follow the event": a slow answer never overwrites a newer state.
import { describe, expect, it } from 'vitest';
import { followLatest } from '../../src/renderer/common/followLatest';

/** A promise the test resolves when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('followLatest', () => {
  it('drops the answer for the conversation the user left while it was in flight', async () => {
    const shown: string[][] = [];
    const first = deferred<string[]>();
    const second = deferred<string[]>();
    // Conversation A is opened; its list is slow. The user switches to B before it answers.
    const a = followLatest<string[]>((v) => shown.push(v));
    a.load(first.promise);
    a.drop();
    const b = followLatest<string[]>((v) => shown.push(v));
    b.load(second.promise);
    second.resolve(['B question']);
    await settled();
    first.resolve(['A question']);
    await settled();
    expect(shown).toEqual([['B question']]);
  });

  it('keeps a pushed state over an answer that was sent before it', async () => {
    const shown: string[] = [];
    const answer = deferred<string>();
    const f = followLatest<string>((v) => shown.push(v));
    f.load(answer.promise);
    f.push('pushed after the request');
    answer.resolve('answer from before the push');
    await settled();
    expect(shown).toEqual(['pushed after the request']);
  });

  it('applies an answer that nothing newer overtook, and ignores a failed one', async () => {
    const shown: string[] = [];
    const f = followLatest<string>((v) => shown.push(v));
    f.load(Promise.reject(new Error('offline')));
    await settled();
    f.load(Promise.resolve('loaded'));
    await settled();
    f.push('changed');
    expect(shown).toEqual(['loaded', 'changed']);
  });
});
