// The prompt library's pure parts: reading an imported file (or refusing it with a reason),
// merging by title, and the "/" filter.
import { describe, expect, it } from 'vitest';
import {
  filterPrompts,
  mergePrompts,
  parsePromptLibrary,
  promptLibraryJson,
  slashOptions,
} from '../../src/shared/promptLibrary';

const a = { title: 'Summarize', text: 'Summarize this.' };
const b = { title: 'Translate', text: 'Translate into German, then summarize.' };

describe('prompt library', () => {
  it('reads its own export and a bare array; refuses anything else with a reason', () => {
    expect(parsePromptLibrary(promptLibraryJson([a, b]))).toEqual({ ok: true, prompts: [a, b] });
    expect(parsePromptLibrary(JSON.stringify([b]))).toEqual({ ok: true, prompts: [b] });
    expect(parsePromptLibrary('not json')).toEqual({ ok: false, message: 'The file is not JSON.' });
    const missing = parsePromptLibrary(JSON.stringify([{ title: ' ', text: 'x' }]));
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(/needs a title/);
    expect(parsePromptLibrary(JSON.stringify({ format: 'stepwise.tasks', version: 1, prompts: [] })).ok).toBe(false);
  });

  it('replaces prompts of the same title on import and keeps the rest in order', () => {
    const newer = { title: 'Summarize', text: 'Shorter.' };
    expect(mergePrompts([a, b], [newer, { title: 'Explain', text: 'Explain.' }])).toEqual([
      newer,
      b,
      { title: 'Explain', text: 'Explain.' },
    ]);
  });

  it('filters by title first, then by text, ignoring case', () => {
    expect(filterPrompts([a, b], '')).toEqual([a, b]);
    expect(filterPrompts([a, b], 'TRANS')).toEqual([b]);
    expect(filterPrompts([b, a], 'summ')).toEqual([a, b]);
  });
});

describe('"/" in the composer', () => {
  it('lists /clear and /compact after the saved prompts, filtered like them', () => {
    const a = { title: 'Summarize', text: 'Summarize it.' };
    expect(slashOptions([a], '').map((o) => o.title)).toEqual(['Summarize', '/clear', '/compact']);
    expect(slashOptions([a], 'c').map((o) => o.title)).toEqual(['/clear', '/compact']);
    expect(slashOptions([a], '/comp').map((o) => o.text)).toEqual(['/compact']);
    expect(slashOptions([a], 'sum').map((o) => o.title)).toEqual(['Summarize']);
  });
});
