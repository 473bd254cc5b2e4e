// Context windows and token counting: the window each model gets, token counts that match
// the tokenizer, the history that fits, and which older turns a summary replaces.
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { buildRequestHistory, compactionSplit, COMPACT_AT } from '../../src/main/core/context/requestHistory';
import { createTokenCounter, estimateTokens } from '../../src/main/core/context/tokenCount';
import type { Message } from '../../src/shared/domain';
import { message } from '../support/messageFixture';
import { contextWindowOf, costOf, DEFAULT_CONTEXT_WINDOW, plural } from '../../src/shared/providers';

const msg = (role: Message['role'], content: string): Message => message({ role, content });
const none = { modelOptions: {}, reportedWindows: {} };

describe('context window of a model', () => {
  it('is what the user set, else the known value, else what the server reported, else 32k', () => {
    expect(
      contextWindowOf({ modelOptions: { 'gpt-4o': { contextWindow: 9000 } }, reportedWindows: {} }, 'gpt-4o'),
    ).toBe(9000);
    expect(contextWindowOf(none, 'gpt-4o-mini')).toBe(128_000);
    expect(contextWindowOf(none, 'anthropic/claude-sonnet-4-5')).toBe(200_000);
    expect(contextWindowOf({ modelOptions: {}, reportedWindows: { 'my-local': 4096 } }, 'my-local')).toBe(4096);
    expect(contextWindowOf(none, 'my-local')).toBe(DEFAULT_CONTEXT_WINDOW);
  });

  it('prices a reply only when both prices are set', () => {
    expect(costOf({ inputPrice: 3, outputPrice: 15 }, 2000, 1000)).toBeCloseTo(0.021);
    expect(costOf({ inputPrice: 3 }, 2000, 1000)).toBeNull();
    expect(costOf(undefined, 1, 1)).toBeNull();
    expect(plural(1, 'model')).toBe('1 model');
    expect(plural(2, 'model')).toBe('2 models');
  });
});

describe('token counter', () => {
  it('counts like the tokenizer, from its cache the second time', () => {
    const counter = createTokenCounter();
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
    expect(counter.text(text)).toBe(countTokens(text));
    expect(counter.text(`${text}`)).toBe(countTokens(text));
    expect(counter.message({ role: 'user', content: 'hello there' })).toBe(countTokens('hello there') + 4);
  });

  it('estimates past its budget for one task, on the high side, and counts the rest in the background', async () => {
    const counter = createTokenCounter({ exactPerTask: 1000 });
    const texts = Array.from(
      { length: 50 },
      (_, i) => `Answer ${i}: the widget config had ${i % 13} issues and module ${i} reads every entry.`,
    );
    const first = texts.map((t) => counter.text(t));
    // The first texts within the budget are exact; the rest estimated, never below the count.
    expect(first[0]).toBe(countTokens(texts[0]));
    expect(first.at(-1)).toBe(estimateTokens(texts.at(-1)!));
    texts.forEach((t, i) => expect(first[i]).toBeGreaterThanOrEqual(countTokens(t)));
    expect(counter.pending()).toBeGreaterThan(0);
    // Background batches run between tasks until every estimate is replaced by the count.
    while (counter.pending() > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(texts.map((t) => counter.text(t))).toEqual(texts.map((t) => countTokens(t)));
    // Outside ASCII a character is taken as a token of its own.
    expect(estimateTokens('日本語のテキスト')).toBeGreaterThanOrEqual(countTokens('日本語のテキスト'));
  });
});

describe('the history of a request', () => {
  const counter = createTokenCounter();
  const long = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
  const history = [
    msg('user', long(300)),
    msg('assistant', long(300)),
    msg('user', long(300)),
    msg('assistant', long(300)),
    msg('user', 'newest'),
  ];

  it('sends everything under the threshold, and says when the whole history is over it', () => {
    const roomy = buildRequestHistory(
      { systemPrompt: 'SYSTEM', summary: undefined, history, toolTokens: 0, contextWindow: 100_000 },
      counter,
    );
    expect(roomy).toMatchObject({ overThreshold: false, tooLong: false });
    expect(roomy.messages).toHaveLength(6);
    const tight = buildRequestHistory(
      { systemPrompt: 'SYSTEM', summary: undefined, history, toolTokens: 0, contextWindow: 2000 },
      counter,
    );
    expect(tight.overThreshold).toBe(true);
    expect(tight.tokens).toBeLessThanOrEqual(2000 * COMPACT_AT);
    expect(tight.messages.at(-1)).toEqual({ role: 'user', content: 'newest' });
    const hopeless = buildRequestHistory(
      { systemPrompt: long(500), summary: undefined, history, toolTokens: 0, contextWindow: 600 },
      counter,
    );
    expect(hopeless.tooLong).toBe(true);
  });

  it('appends the summary to the system prompt', () => {
    const summary = { ...msg('system', 'What happened before.'), summaryThrough: 1 };
    const built = buildRequestHistory(
      { systemPrompt: 'SYSTEM', summary, history: history.slice(2), toolTokens: 0, contextWindow: 100_000 },
      counter,
    );
    expect(built.messages[0].content).toMatch(
      /^SYSTEM\n\n# Summary of the earlier conversation\nWhat happened before\.$/,
    );
  });

  it('summarizes the turns before the newest ones that fit, starting the rest with a user message', () => {
    const tail = history.slice(2).reduce((n, m) => n + 4 + counter.text(m.content), 0);
    const split = compactionSplit(history, tail, counter)!;
    expect(split.older.map((m) => m.id)).toEqual(history.slice(0, 2).map((m) => m.id));
    expect(split.throughId).toBe(history[1].id);
    expect(compactionSplit(history, 0, counter)!.older).toHaveLength(4);
    expect(compactionSplit([msg('user', 'only')], 0, counter)).toBeNull();
  });
});
