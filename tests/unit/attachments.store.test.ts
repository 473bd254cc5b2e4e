// The attachment store on a real data directory and SQLite file: content addressing,
// limits, kinds decided from the bytes, and a file gone from disk.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/main/core/db/openDatabase';
import { createConversationRepo } from '../../src/main/core/conversations/conversationRepo';
import { createMessageRepo, type MessageRepo } from '../../src/main/core/conversations/messageRepo';
import { createAttachments, type Attachments } from '../../src/main/core/attachments/attachmentsModule';
import { ATTACHMENTS_DIR } from '../../src/main/core/attachments/attachmentFiles';
import {
  ATTACHMENT_FILE_MAX,
  ATTACHMENT_MESSAGE_MAX,
  ATTACHMENTS_PER_MESSAGE,
  AttachmentUpload,
  limitProblem,
} from '../../src/shared/attachments';
import { makeTempDir, removeDir } from '../support/tempDir';
import { PNG_1X1, pdfWithPages, pdfWithText } from '../support/attachmentFixtures';

let dir: string;
let db: Db;
let clock: number;
let attachments: Attachments;
let messages: MessageRepo;
let conversationId: string;

beforeEach(() => {
  dir = makeTempDir();
  db = openDatabase(dir).db;
  clock = 1_000_000_000;
  const now = () => clock;
  attachments = createAttachments({ db, dataDir: dir, now });
  messages = createMessageRepo(db, now, attachments.links);
  conversationId = createConversationRepo(db, now).create().id;
});

afterEach(() => {
  db.close();
  removeDir(dir);
});

const storedFiles = () => fs.readdirSync(path.join(dir, ATTACHMENTS_DIR));

describe('attachment store', () => {
  it('stores the same bytes once, under their sha256, private to the user', async () => {
    const a = await attachments.store('dot.png', PNG_1X1);
    const again = await attachments.store('dot.png', Buffer.from(PNG_1X1));
    const renamed = await attachments.store('copy of dot.png', PNG_1X1);
    expect(again.id).toBe(a.id);
    expect(renamed.id).not.toBe(a.id);
    expect(renamed).toMatchObject({
      name: 'copy of dot.png',
      kind: 'image',
      mimeType: 'image/png',
      size: PNG_1X1.length,
    });
    const sha = attachments.files.sha256(PNG_1X1);
    expect(storedFiles()).toEqual([sha]);
    expect(fs.readFileSync(path.join(dir, ATTACHMENTS_DIR, sha)).equals(PNG_1X1)).toBe(true);
    if (process.platform !== 'win32') {
      expect(fs.statSync(path.join(dir, ATTACHMENTS_DIR, sha)).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dir, ATTACHMENTS_DIR)).mode & 0o777).toBe(0o700);
    }
  });

  it('decides the kind from the bytes, not the name, and refuses what a model cannot read', async () => {
    expect(await attachments.store('looks-like.txt', PNG_1X1)).toMatchObject({ kind: 'image', mimeType: 'image/png' });
    expect(await attachments.store('notes.md', Buffer.from('# Notes\n'))).toMatchObject({
      kind: 'text',
      mimeType: 'text/markdown',
    });
    await expect(attachments.store('archive.zip', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0xff]))).rejects.toThrow(
      /archive\.zip is not an image .* cannot be sent to a model/,
    );
    await expect(attachments.store('empty.txt', Buffer.alloc(0))).rejects.toThrow('empty.txt is empty.');
  });

  it('extracts a PDF’s text when it comes in, and refuses a broken PDF', async () => {
    const pdf = await attachments.store('report.pdf', pdfWithText('Quarterly figures look fine'));
    expect(pdf).toMatchObject({ kind: 'pdf', mimeType: 'application/pdf' });
    expect(attachments.content({ content: 'Summarize', attachments: [pdf] }, 'any-model', false)).toBe(
      'Summarize\n\nreport.pdf (text of the PDF):\n```text\nQuarterly figures look fine\n```',
    );
    await expect(attachments.store('broken.pdf', Buffer.from('%PDF-1.4\nnot really'))).rejects.toThrow(
      /broken\.pdf could not be read as a PDF/,
    );
  });

  it('takes base64 data only, padding only at its end', async () => {
    const upload = (data: string) => AttachmentUpload.safeParse({ name: 'a.txt', mimeType: '', data }).success;
    expect([upload(Buffer.from('hello').toString('base64')), upload('aGk='), upload('aA=='), upload('')]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([upload('aGk=a'), upload('a=b=')]).toEqual([false, false]);
    // Any other character is refused where main decodes the bytes (one pass, no regex over 13 MB).
    const add = async (data: string) => attachments.handlers['attachments:add']({ name: 'a.txt', mimeType: '', data });
    for (const bad of ['aGk*', 'a\nb', 'aGkxa', 'aG k='])
      await expect(add(bad)).rejects.toThrow('The data of a.txt must be base64.');
    expect(await add('aGk=')).toMatchObject({ kind: 'text', size: 2 });
    expect(await add(Buffer.from('hello').toString('base64'))).toMatchObject({ kind: 'text', size: 5 });
    // Past the first chunk the upload is decoded over several turns of the event loop, checked all along.
    const big = Buffer.alloc(2 * 1024 * 1024, 'several chunks\n');
    const encoded = big.toString('base64');
    await expect(add(`${encoded.slice(0, 2_000_000)}*${encoded.slice(2_000_001)}`)).rejects.toThrow('must be base64');
    const stored = attachments.bytes((await add(encoded)).id);
    expect(stored.ok && stored.bytes.equals(big)).toBe(true);
  });

  it('keeps a PDF’s text in a private file beside the PDF, written by the worker, not in its row', async () => {
    const bytes = pdfWithText('Figures for June');
    const pdf = await attachments.store('june.pdf', bytes);
    const sha = attachments.files.sha256(bytes);
    const textFile = path.join(dir, ATTACHMENTS_DIR, `${sha}.txt`);
    expect(fs.readFileSync(textFile, 'utf8')).toBe('Figures for June');
    if (process.platform !== 'win32') expect(fs.statSync(textFile).mode & 0o777).toBe(0o600);
    expect(db.prepare('SELECT text FROM attachments WHERE id = ?').get(pdf.id)).toEqual({ text: null });
    expect(storedFiles().sort()).toEqual([sha, `${sha}.txt`].sort());
    // The same PDF under another name reads the text already there.
    const copy = await attachments.store('copy.pdf', bytes);
    expect(attachments.content({ content: '', attachments: [copy] }, 'any-model', false)).toBe(
      'copy.pdf (text of the PDF):\n```text\nFigures for June\n```',
    );
  });

  it('reads the text of a PDF stored by an older version from its row', async () => {
    const bytes = pdfWithText('Old figures');
    const sha = await attachments.files.put(bytes);
    db.prepare(
      `INSERT INTO attachments (id, sha256, name, mime_type, kind, size, text, text_note, created_at)
       VALUES ('old-pdf-0001', ?, 'old.pdf', 'application/pdf', 'pdf', ?, 'Old figures', NULL, ?)`,
    ).run(sha, bytes.length, clock);
    const old = {
      id: 'old-pdf-0001',
      name: 'old.pdf',
      mimeType: 'application/pdf',
      kind: 'pdf' as const,
      size: bytes.length,
    };
    expect(attachments.content({ content: '', attachments: [old] }, 'any-model', false)).toBe(
      'old.pdf (text of the PDF):\n```text\nOld figures\n```',
    );
  });

  it('attaches a PDF whose text is over the time or memory budget without its text, saying why', async () => {
    const pdf = pdfWithPages(200, 40, (p, l) => `Page ${p + 1} line ${l + 1} of the report`);
    // No worker starts and parses a file in a millisecond.
    const slow = createAttachments({ db, dataDir: dir, now: () => clock, pdfBudget: { timeMs: 1, heapMb: 512 } });
    const late = await slow.store('report.pdf', pdf);
    expect(late).toMatchObject({
      kind: 'pdf',
      note: 'report.pdf is attached without its text: reading its text took longer than 1 ms. Models will be told its text is missing.',
    });
    expect(slow.content({ content: 'Summarize', attachments: [late] }, 'any-model', false)).toContain(
      'reading its text took longer than 1 ms',
    );
    // pdf.js alone needs more heap than 8 MB.
    const small = createAttachments({ db, dataDir: dir, now: () => clock, pdfBudget: { timeMs: 60_000, heapMb: 8 } });
    const big = await small.store('other name.pdf', pdf);
    expect(big.note).toBe(
      'other name.pdf is attached without its text: reading its text needed more than 8 MB of memory. Models will be told its text is missing.',
    );
    // The file itself is stored: it can be sent (as a note) and exported.
    expect(small.bytes(big.id)).toMatchObject({ ok: true });
  });

  it('enforces the size limits per file and per message, before anything is linked', async () => {
    await expect(attachments.store('big.txt', Buffer.alloc(ATTACHMENT_FILE_MAX + 1, 'a'))).rejects.toThrow(
      /big\.txt is 10,485,761 bytes; files can be at most 10 MB \(10,485,760 bytes\)/,
    );
    const eightMb = (fill: string) => attachments.store(`${fill}.txt`, Buffer.alloc(8 * 1024 * 1024, fill));
    const files = [await eightMb('a'), await eightMb('b'), await eightMb('c')];
    const total = files.reduce((n, f) => n + f.size, 0);
    expect(total).toBeGreaterThan(ATTACHMENT_MESSAGE_MAX);
    expect(() =>
      messages.insert({ conversationId, role: 'user', content: 'three', attachments: files.map((f) => f.id) }),
    ).toThrow(/These files come to 24 MB; a message's files can be at most 20 MB in all/);
    // Refused as a whole: neither the message nor any link was stored.
    expect(messages.all(conversationId)).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM message_attachments').get()).toEqual({ n: 0 });

    const small = await attachments.store('a.txt', Buffer.from('a'));
    const tooMany = Array.from({ length: ATTACHMENTS_PER_MESSAGE + 1 }, () => small.id);
    expect(() => messages.insert({ conversationId, role: 'user', content: 'many', attachments: tooMany })).toThrow(
      /at most 10 files/,
    );
    expect(() =>
      messages.insert({ conversationId, role: 'user', content: 'gone', attachments: ['deadbeef-0000'] }),
    ).toThrow(/no longer stored/);
  });

  it('says which limit a file breaks before it is uploaded (the composer shows it)', () => {
    expect(limitProblem([], { name: 'a.png', size: ATTACHMENT_FILE_MAX })).toBeNull();
    expect(limitProblem([], { name: 'a.png', size: ATTACHMENT_FILE_MAX + 1 })).toMatch(
      /a\.png is 10,485,761 bytes; files can be at most 10 MB \(10,485,760 bytes\)/,
    );
    expect(limitProblem([], { name: 'b.png', size: 12 * 1024 * 1024 })).toMatch(
      /b\.png is 12 MB; files can be at most 10 MB\./,
    );
    expect(limitProblem([{ size: 15 * 1024 * 1024 }], { name: 'b.png', size: 6 * 1024 * 1024 })).toMatch(
      /bring this message to 21 MB/,
    );
    const ten = Array.from({ length: ATTACHMENTS_PER_MESSAGE }, () => ({ size: 1 }));
    expect(limitProblem(ten, { name: 'c.txt', size: 1 })).toMatch(/at most 10 files/);
  });

  it('links files to a message in order and reads them with it', async () => {
    const notes = await attachments.store('notes.txt', Buffer.from('first line\n'));
    const dot = await attachments.store('dot.png', PNG_1X1);
    const message = messages.insert({ conversationId, role: 'user', content: 'Look', attachments: [notes.id, dot.id] });
    expect(message.attachments?.map((a) => a.name)).toEqual(['notes.txt', 'dot.png']);
    expect(messages.all(conversationId)[0].attachments).toEqual([notes, dot]);
    // Deleting the message drops its links; the rows stay until the start-up collection.
    messages.truncateFrom(conversationId, message.id);
    expect(db.prepare('SELECT COUNT(*) AS n FROM message_attachments').get()).toEqual({ n: 0 });
  });

  it('reads every message’s own files however a history is read: whole, by page, or after a summary', async () => {
    const notes = await attachments.store('notes.txt', Buffer.from('first line\n'));
    const dot = await attachments.store('dot.png', PNG_1X1);
    const first = messages.insert({ conversationId, role: 'user', content: 'One', attachments: [notes.id] });
    messages.insert({ conversationId, role: 'assistant', content: 'Seen' });
    messages.insert({ conversationId, role: 'user', content: 'Plain' });
    const third = messages.insert({ conversationId, role: 'user', content: 'Two', attachments: [dot.id, notes.id] });
    const filesOf = (list: Array<{ content: string; attachments?: unknown }>) =>
      list.map((m) => [m.content, m.attachments ?? null]);
    const expected = [
      ['One', [notes]],
      ['Seen', null],
      ['Plain', null],
      ['Two', [dot, notes]],
    ];
    expect(filesOf(messages.all(conversationId))).toEqual(expected);
    expect(filesOf(messages.pageBefore(conversationId, undefined, 10).items)).toEqual(expected);
    expect(filesOf(messages.pageBefore(conversationId, third.id, 2).items)).toEqual(expected.slice(1, 3));
    expect(filesOf(messages.after(conversationId, first.id))).toEqual(expected.slice(1));
  });

  it('sends images as image_url parts to a model that sees them, and a note to one that does not', async () => {
    const dot = await attachments.store('dot.png', PNG_1X1);
    const notes = await attachments.store('notes.txt', Buffer.from('uses ``` inside\n'));
    const message = { content: 'What is this?', attachments: [dot, notes] };
    expect(attachments.content(message, 'gpt-4o', true)).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1X1.toString('base64')}` } },
      { type: 'text', text: 'notes.txt:\n````txt\nuses ``` inside\n````' },
    ]);
    expect(attachments.content(message, 'gpt-3.5-turbo', false)).toBe(
      'What is this?\n\n[Image dot.png not shown: gpt-3.5-turbo is not set up to see images.]\n\nnotes.txt:\n````txt\nuses ``` inside\n````',
    );
  });

  it('reads a file gone from disk as missing: a note for the model and for the page, never a crash', async () => {
    const dot = await attachments.store('dot.png', PNG_1X1);
    const notes = await attachments.store('notes.txt', Buffer.from('hello'));
    fs.rmSync(path.join(dir, ATTACHMENTS_DIR), { recursive: true });
    expect(attachments.preview(dot.id)).toEqual({
      status: 'missing',
      message: 'The attachment dot.png is missing: its file is no longer in the attachments folder.',
    });
    expect(attachments.content({ content: 'Still there?', attachments: [notes] }, 'gpt-4o', true)).toBe(
      'Still there?\n\n[The attachment notes.txt is missing: its file is no longer in the attachments folder.]',
    );
    expect(attachments.bytes(notes.id)).toMatchObject({ ok: false, missing: true });
    // Storing the same bytes again brings the file back under the same attachment.
    expect((await attachments.store('notes.txt', Buffer.from('hello'))).id).toBe(notes.id);
    expect(attachments.bytes(notes.id)).toMatchObject({ ok: true });
  });

  it('collects uploads never sent after a day, and files no attachment names', async () => {
    const sent = await attachments.store('sent.txt', Buffer.from('sent'));
    const unsent = await attachments.store('unsent.txt', Buffer.from('unsent'));
    messages.insert({ conversationId, role: 'user', content: 'x', attachments: [sent.id] });
    const unsentSha = attachments.files.sha256(Buffer.from('unsent'));
    fs.writeFileSync(path.join(dir, ATTACHMENTS_DIR, 'f'.repeat(64)), 'stray');
    // What a stopped writer leaves, and what was derived from a file no row names.
    fs.writeFileSync(path.join(dir, ATTACHMENTS_DIR, `${unsentSha}.txt.1-2.tmp`), 'half');
    fs.writeFileSync(path.join(dir, ATTACHMENTS_DIR, `${'e'.repeat(64)}.thumb`), 'stray thumbnail');
    fs.writeFileSync(path.join(dir, ATTACHMENTS_DIR, `${unsentSha}.thumb`), 'kept while its file is');
    expect(attachments.collect()).toEqual({ rows: 0, files: 3 });
    clock += 25 * 60 * 60 * 1000;
    expect(attachments.collect()).toEqual({ rows: 1, files: 2 });
    expect(attachments.preview(unsent.id)).toMatchObject({ status: 'missing' });
    expect(storedFiles()).toEqual([attachments.files.sha256(Buffer.from('sent'))]);
  });
});
