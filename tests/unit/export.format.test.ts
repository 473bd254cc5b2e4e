// The export formats' documentation cannot drift from the code: the JSON Schemas in
// docs/schemas are generated from the zod schemas (regenerate with
// `UPDATE_SCHEMAS=1 npx vitest run tests/unit/export.format.test.ts`). Also the pure text
// helpers behind the Markdown and file names.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConversationExport,
  ConversationExportV1,
  ConversationsExport,
  TasksExport,
  TasksExportV1,
} from '../../src/shared/exportFormat';
import {
  closeOpenFence,
  codeSpan,
  escapeMarkdownLine,
  escapeRawHtml,
  formatUtc,
  truncate,
} from '../../src/shared/markdownText';
import { exportFilename, slug } from '../../src/main/core/export/exportFiles';
import { CSV_COLUMNS } from '../../src/main/core/export/tasksCsv';

const docs = path.resolve(import.meta.dirname, '../../docs');

describe('published JSON Schemas', () => {
  for (const [name, schema] of [
    // Published versions stay as they were: old files keep validating against them.
    ['stepwise.tasks.v1', TasksExportV1],
    ['stepwise.conversation.v1', ConversationExportV1],
    ['stepwise.tasks.v2', TasksExport],
    ['stepwise.conversation.v2', ConversationExport],
    ['stepwise.conversations.v1', ConversationsExport],
  ] as const) {
    it(`docs/schemas/${name}.schema.json matches the zod schema`, () => {
      const file = path.join(docs, 'schemas', `${name}.schema.json`);
      const generated = { title: name, ...z.toJSONSchema(schema) };
      if (process.env.UPDATE_SCHEMAS) fs.writeFileSync(file, `${JSON.stringify(generated, null, 2)}\n`);
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(generated);
    });
  }

  it('docs/export-format.md documents every top-level field and every CSV column', () => {
    const text = fs.readFileSync(path.join(docs, 'export-format.md'), 'utf8');
    for (const field of [
      ...Object.keys(TasksExport.shape),
      ...Object.keys(ConversationExport.shape),
      ...Object.keys(ConversationsExport.shape),
    ]) {
      expect(text).toContain(`"${field}"`);
    }
    expect(text).toContain(`\`${CSV_COLUMNS.join(', ')}\``);
  });
});

describe('escapeMarkdownLine', () => {
  const cases: Array<[string, string]> = [
    ['Plain words', 'Plain words'],
    ['[x] done', '\\[x\\] done'],
    ['# heading', '\\# heading'],
    ['- item', '\\- item'],
    ['+ item', '\\+ item'],
    ['12. ordered', '12\\. ordered'],
    ['3) ordered', '3\\) ordered'],
    ['a - b + c 1. d', 'a - b + c 1. d'],
    ['`code`', '\\`code\\`'],
    ['a | b', 'a \\| b'],
    ['*em* _em_ ~~del~~', '\\*em\\* \\_em\\_ \\~\\~del\\~\\~'],
    ['<b> &amp;', '\\<b\\> \\&amp;'],
    ['$x$ ==hi== %%c%% ^id', '\\$x\\$ \\=\\=hi\\=\\= \\%\\%c\\%\\% \\^id'],
    ['back\\slash', 'back\\\\slash'],
    ['two\nlines\r\nand\u2028more', 'two lines and more'],
    ['  padded  ', 'padded'],
    ['see https://x.com/a_b', 'see https\\://x.com/a\\_b'],
    ['www.example.com', 'www\\.example.com'],
    ['🚀 مرحبا', '🚀 مرحبا'],
  ];
  it.each(cases)('%j → %j', (input, expected) => {
    expect(escapeMarkdownLine(input)).toBe(expected);
  });
});

describe('codeSpan', () => {
  it.each([
    ['name', '`name`'],
    ['a`b', '``a`b``'],
    ['``x', '``` ``x ```'],
    [' spaced ', '`  spaced  `'],
    ['multi\nline', '`multi line`'],
  ])('%j → %j', (input, expected) => {
    expect(codeSpan(input)).toBe(expected);
  });
});

describe('closeOpenFence', () => {
  it.each([
    ['no code', 'no code'],
    ['```js\nclosed\n```', '```js\nclosed\n```'],
    ['```js\nopen', '```js\nopen\n```'],
    ['~~~~\nopen\n~~~', '~~~~\nopen\n~~~\n~~~~'],
    ['```` \n```\nstill open', '```` \n```\nstill open\n````'],
    ['inline ```code``` only', 'inline ```code``` only'],
  ])('%j', (input, expected) => {
    expect(closeOpenFence(input)).toBe(expected);
  });
});

describe('escapeRawHtml', () => {
  it.each([
    ['plain <3 and a < b', 'plain <3 and a < b'],
    ['<b>bold</b>', '\\<b>bold\\</b>'],
    ['<!-- c --> <?php ?>', '\\<!-- c --> \\<?php ?>'],
    ['`<b>` and ``a`<i>`b``', '`<b>` and ``a`<i>`b``'],
    ['\\<b> already escaped', '\\<b> already escaped'],
    ['```\n<div>\n```\n<div>', '```\n<div>\n```\n\\<div>'],
    ['    <div> indented code', '    <div> indented code'],
    // A backtick with no partner is literal, so the tag after it would be live.
    ['unclosed `<b> span', 'unclosed `\\<b> span'],
  ])('%j', (input, expected) => {
    expect(escapeRawHtml(input)).toBe(expected);
  });
});

describe('small helpers', () => {
  it('truncates by characters, not UTF-16 units', () => {
    expect(truncate('short', 10)).toBe('short');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('🚀🚀🚀🚀', 3)).toBe('🚀🚀…');
  });

  it('formats times in UTC', () => {
    expect(formatUtc(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 03:04 UTC');
  });

  it('makes safe file names from any title', () => {
    expect(slug('Release v2: the "final" one / really')).toBe('release-v2-the-final-one-really');
    expect(slug('../../etc/passwd')).toBe('etc-passwd');
    expect(slug('Planung für Ärzte')).toBe('planung-für-ärzte');
    expect(slug('🚀🚀')).toBe('untitled');
    expect(slug('x'.repeat(100))).toHaveLength(48);
    expect(exportFilename(['tasks', 'all'], Date.UTC(2026, 4, 1), 'csv')).toBe('stepwise-tasks-all-2026-05-01.csv');
  });
});
