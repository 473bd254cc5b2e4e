// Attachments in conversation exports: the JSON export carries each file as base64 on its
// message and an import stores them again (once per content); the Markdown export names
// them; files from before attachments import as before; a file missing at export is null.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationExport, ConversationsExport } from '../../../src/shared/exportFormat';
import { ATTACHMENTS_DIR } from '../../../src/main/core/attachments/attachmentFiles';
import { makeTempDir, removeDir } from '../../support/tempDir';
import { PNG_1X1 } from '../../support/attachmentFixtures';
import { exportedText, startCore, type TestCore } from './exportFixtures';

let dir: string;
let app: TestCore;

beforeEach(() => {
  dir = makeTempDir('stepwise-attachments-export-');
  app = startCore(dir);
});

afterEach(() => {
  app.core.close();
  removeDir(dir);
});

const exported = (id: string, format: 'json' | 'md') => exportedText(app, id, format);

async function conversationWithFiles() {
  const { id } = await app.call('conversations:create', { title: 'With files' });
  const png = await app.core.attachments.store('dot.png', PNG_1X1);
  const txt = await app.core.attachments.store('notes.txt', Buffer.from('alpha\nbeta\n'));
  app.core.messages.insert({
    conversationId: id,
    role: 'user',
    content: 'Look at these',
    attachments: [png.id, txt.id],
  });
  app.core.messages.insert({ conversationId: id, role: 'assistant', content: 'Seen.' });
  return { id, png, txt };
}

describe('attachments in exports', () => {
  it('round-trip through the JSON export (base64) and import, stored once per content', async () => {
    const { id } = await conversationWithFiles();
    const json = await exported(id, 'json');
    const data = ConversationExport.parse(JSON.parse(json));
    expect(data.messages[0].attachments).toEqual([
      { name: 'dot.png', mimeType: 'image/png', size: PNG_1X1.length, data: PNG_1X1.toString('base64') },
      { name: 'notes.txt', mimeType: 'text/plain', size: 11, data: Buffer.from('alpha\nbeta\n').toString('base64') },
    ]);
    expect(data.messages[1]).not.toHaveProperty('attachments');

    const imported = await app.call('import:conversation', { content: json });
    if (imported.kind !== 'imported') throw new Error('not imported');
    const [first] = app.core.messages.all(imported.conversationId);
    expect(first.attachments?.map((a) => [a.name, a.kind, a.size])).toEqual([
      ['dot.png', 'image', PNG_1X1.length],
      ['notes.txt', 'text', 11],
    ]);
    // Same bytes, same name: the same attachment rows and files as the original.
    expect(fs.readdirSync(path.join(dir, ATTACHMENTS_DIR))).toHaveLength(2);
    // Exporting the import again gives the same files.
    expect(
      ConversationExport.parse(JSON.parse(await exported(imported.conversationId, 'json'))).messages[0].attachments,
    ).toEqual(data.messages[0].attachments);
  });

  it('imports into a fresh data directory, and a file missing at export comes back without it', async () => {
    const { id, txt } = await conversationWithFiles();
    const sha = app.core.attachments.files.sha256(Buffer.from('alpha\nbeta\n'));
    fs.rmSync(path.join(dir, ATTACHMENTS_DIR, sha));
    const json = await exported(id, 'json');
    expect(JSON.parse(json).messages[0].attachments[1]).toEqual({
      name: txt.name,
      mimeType: 'text/plain',
      size: 11,
      data: null,
    });

    const other = makeTempDir('stepwise-attachments-import-');
    const fresh = startCore(other);
    try {
      const imported = await fresh.call('import:conversation', { content: json });
      if (imported.kind !== 'imported') throw new Error('not imported');
      const [first] = fresh.core.messages.all(imported.conversationId);
      expect(first.attachments?.map((a) => a.name)).toEqual(['dot.png']);
      expect(await fresh.call('attachments:preview', { id: first.attachments![0].id })).toEqual({
        status: 'ok',
        dataUrl: `data:image/png;base64,${PNG_1X1.toString('base64')}`,
      });
    } finally {
      fresh.core.close();
      removeDir(other);
    }
  });

  it('imports files written before attachments, and refuses a file whose bytes are not a supported kind', async () => {
    const { id } = await conversationWithFiles();
    const old = JSON.parse(await exported(id, 'json')) as { messages: Array<Record<string, unknown>> };
    delete old.messages[0].attachments;
    const fromOld = await app.call('import:conversation', { content: JSON.stringify(old) });
    if (fromOld.kind !== 'imported') throw new Error('not imported');
    expect(app.core.messages.all(fromOld.conversationId)[0].attachments).toBeUndefined();

    old.messages[0].attachments = [
      { name: 'tool.exe', mimeType: '', size: 4, data: Buffer.from([0x4d, 0x5a, 0, 1]).toString('base64') },
    ];
    const before = app.db.prepare('SELECT COUNT(*) AS n FROM conversations').get();
    expect((await app.fail('import:conversation', { content: JSON.stringify(old) })).message).toMatch(
      /A file of message 1 could not be stored: tool\.exe is not an image .* Nothing was imported\./,
    );
    expect(app.db.prepare('SELECT COUNT(*) AS n FROM conversations').get()).toEqual(before);
  });

  it('names the files under their message in the Markdown export', async () => {
    const { id } = await conversationWithFiles();
    const md = await exported(id, 'md');
    expect(md).toContain(
      'Look at these\n\n_Attached files (their contents are in the JSON export):_\n- 📎 `dot.png` · image/png · 70 B\n- 📎 `notes.txt` · text/plain · 11 B',
    );
  });

  it('come back with a folder export imported into a fresh data directory', async () => {
    const { id } = await conversationWithFiles();
    const folder = await app.call('folders:create', { name: 'Files' });
    await app.call('conversations:setFolder', { id, folderId: folder.id });
    const result = await app.call('export:folder', { folderId: folder.id, format: 'json' });
    if (result.kind !== 'download') throw new Error('not a download');
    expect(ConversationsExport.parse(JSON.parse(result.text)).conversations[0].messages[0].attachments).toHaveLength(2);

    const otherDir = makeTempDir('stepwise-attachments-bundle-');
    const other = startCore(otherDir);
    try {
      const imported = await other.call('import:conversation', { content: result.text });
      if (imported.kind !== 'imported') throw new Error('not imported');
      const [first] = other.core.messages.all(imported.conversationId);
      expect(first.attachments?.map((a) => [a.name, a.kind, a.size])).toEqual([
        ['dot.png', 'image', PNG_1X1.length],
        ['notes.txt', 'text', 11],
      ]);
      expect(fs.readdirSync(path.join(otherDir, ATTACHMENTS_DIR))).toHaveLength(2);
    } finally {
      other.core.close();
      removeDir(otherDir);
    }
  });
});
