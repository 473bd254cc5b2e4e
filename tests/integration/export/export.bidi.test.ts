// Bidirectional-override characters in titles and task titles cannot make an export read
// differently from what it holds: Markdown and CSV show each as a visible marker, JSON
// writes it as an escape (so an import gets the same text back), and file names drop it.
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { escapeBidiControlsInJson, revealBidiControls } from '../../../src/shared/bidi';
import { tempDirPerTest } from '../../support/tempDir';
import { insertList, startCore, type TestCore } from './exportFixtures';

const RLO = '\u202E';
const TITLE = `Invoice ${RLO}fdp.exe`;
const TASK = `Open \u2066report${RLO}txt.js\u2069 now`;
const CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

const dir = tempDirPerTest({ beforeEach, afterEach });
let app: TestCore;
let conversationId: string;

beforeEach(async () => {
  app = startCore(dir.path);
  conversationId = (await app.call('conversations:create', { title: TITLE })).id;
  insertList(app.db, conversationId, { tasks: [{ seq: 1, title: TASK, description: `see ${RLO}cod.exe` }] });
});

afterEach(() => app.core.close());

async function download(format: 'md' | 'csv' | 'json') {
  const result = await app.call('export:tasks', { conversationId, format, scope: 'open' });
  if (result.kind !== 'download') throw new Error(`expected a download, got ${result.kind}`);
  return result;
}

it('the helper marks every override and isolate, and nothing else', () => {
  expect(revealBidiControls(TITLE)).toBe('Invoice [U+202E]fdp.exe');
  const all = '\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069';
  expect(revealBidiControls(all)).toBe('[U+202A][U+202B][U+202C][U+202D][U+202E][U+2066][U+2067][U+2068][U+2069]');
  expect(revealBidiControls('שלום עולם — مرحبا')).toBe('שלום עולם — مرحبا');
  expect(JSON.parse(escapeBidiControlsInJson(JSON.stringify({ t: all })))).toEqual({ t: all });
});

it('Markdown shows markers instead of the characters', async () => {
  const { text, filename } = await download('md');
  expect(text).not.toMatch(CONTROLS);
  expect(text).toContain('Invoice \\[U+202E\\]fdp.exe');
  expect(text).toContain('Open \\[U+2066\\]report\\[U+202E\\]txt.js\\[U+2069\\] now');
  expect(filename).not.toMatch(CONTROLS);
});

it('CSV shows markers in titles and descriptions', async () => {
  const { text, filename } = await download('csv');
  expect(text).not.toMatch(CONTROLS);
  const [row] = parse(text.replace(/^\uFEFF/, ''), { columns: true }) as Array<Record<string, string>>;
  expect(row.title).toBe('Open [U+2066]report[U+202E]txt.js[U+2069] now');
  expect(Object.values(row)).toContain('Invoice [U+202E]fdp.exe');
  expect(filename).not.toMatch(CONTROLS);
});

it('JSON writes escapes that read back as the same text', async () => {
  const { text } = await download('json');
  expect(text).not.toMatch(CONTROLS);
  expect(text).toContain('Invoice \\u202efdp.exe');
  const data = JSON.parse(text) as {
    conversations: Array<{ title: string; lists: Array<{ tasks: Array<{ title: string }> }> }>;
  };
  expect(data.conversations[0].title).toBe(TITLE);
  expect(data.conversations[0].lists[0].tasks[0].title).toBe(TASK);

  const conversation = await app.call('export:conversation', { conversationId, format: 'json' });
  if (conversation.kind !== 'download') throw new Error('expected a download');
  expect(conversation.text).not.toMatch(CONTROLS);
  const imported = await app.call('import:conversation', { content: conversation.text });
  if (imported.kind !== 'imported') throw new Error('not imported');
  expect(imported.title).toBe(TITLE);
});
