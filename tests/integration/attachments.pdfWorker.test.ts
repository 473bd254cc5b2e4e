// A large PDF's text is read in a worker thread: the host keeps answering calls while it
// parses, and the text still arrives whole.
import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, type ChatHarness } from '../support/chatHarness';
import { pdfWithPages } from '../support/attachmentFixtures';

let h: ChatHarness;

chatCorePerTest((_s: ScriptedServer, c) => {
  h = c;
});

describe('a large PDF', () => {
  it('is parsed off the main thread: app:info is answered again and again while the parse is in flight', async () => {
    const pdf = pdfWithPages(400, 60, (p, l) => `Page ${p + 1} line ${l + 1} of the yearly report`);
    let parsed = false;
    const adding = h
      .call('attachments:add', { name: 'report.pdf', mimeType: 'application/pdf', data: pdf.toString('base64') })
      .finally(() => {
        parsed = true;
      });
    // Ping as a page would, one call after another, until the parse is done.
    let answeredDuringParse = 0;
    while (!parsed) {
      await new Promise((resolve) => setImmediate(resolve));
      const info = await h.call('app:info', {});
      expect(info.host).toBeTruthy();
      if (!parsed) answeredDuringParse++;
    }
    // On the main thread, pdf.js held the thread for the whole parse; in a worker the
    // loop above runs all the while.
    expect(answeredDuringParse).toBeGreaterThan(20);
    const stored = await adding;
    expect(stored).toMatchObject({ kind: 'pdf', size: pdf.length });
    expect(stored.note).toBeUndefined();
  });
});
