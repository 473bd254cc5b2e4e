// Decompression bombs attached at once to a host in a child process: a few hundred kB of PNG
// or JPEG whose header claims 16000×16000 or more, and large images just within the
// thumbnail budget. The host's peak RSS (VmHWM, reset before the uploads) stays within
// 300 MB of where it was, it answers other calls meanwhile, the bombs keep their originals
// as their previews, and the images within the budget get their thumbnails.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import photon from '@silvia-odwyer/photon-node';
import { connectHost, startHostChild, type HostChild, type HostClient } from '../support/hostChild';
import { imageSize, jpegClaimingSize, zeroPng } from '../support/attachmentFixtures';
import { makeTempDir, removeDir } from '../support/tempDir';

const MB = 1024 * 1024;
let dataDir: string;
let host: HostChild;
let api: HostClient;

beforeAll(async () => {
  dataDir = makeTempDir('stepwise-bombs-');
  host = await startHostChild(dataDir, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
  api = await connectHost(host);
}, 60_000);

afterAll(async () => {
  api?.close();
  await host?.kill();
  removeDir(dataDir);
});

const status = (pid: number) => fs.readFileSync(`/proc/${pid}/status`, 'utf8');
const kB = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status(pid))![1]);

function smallJpeg(): Buffer {
  const image = new photon.PhotonImage(new Uint8Array(64 * 64 * 4).fill(200), 64, 64);
  try {
    return Buffer.from(image.get_bytes_jpeg(80));
  } finally {
    image.free();
  }
}

describe('thumbnails of decompression bombs', () => {
  it.runIf(process.platform === 'linux')(
    'ten bombs attached at once raise the host’s RSS by at most 300 MB, and the host answers meanwhile',
    async () => {
      const gray = await zeroPng(16000, 16000, 0);
      const rgb = await zeroPng(10000, 10000, 2);
      const withinBudget = await zeroPng(4000, 3500, 2);
      const files: Array<{ name: string; bytes: Buffer; thumbnail: boolean }> = [
        ...[1, 2, 3].map((n) => ({ name: `gray-${n}.png`, bytes: gray(`gray ${n}`), thumbnail: false })),
        ...[1, 2].map((n) => ({ name: `rgb-${n}.png`, bytes: rgb(`rgb ${n}`), thumbnail: false })),
        { name: 'huge.jpg', bytes: jpegClaimingSize(smallJpeg(), 65000, 65000), thumbnail: false },
        ...[1, 2, 3, 4].map((n) => ({ name: `large-${n}.png`, bytes: withinBudget(`large ${n}`), thumbnail: true })),
      ];
      expect(Math.max(...files.map((f) => f.bytes.length))).toBeLessThan(MB);

      const pid = host.child.pid!;
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
      const before = kB(pid, 'VmRSS');
      let stored = 0;
      const uploads = files.map((file) =>
        api
          .call('attachments:add', { name: file.name, mimeType: '', data: file.bytes.toString('base64') })
          .then((info) => {
            stored++;
            return info;
          }),
      );
      // Another call is answered while the thumbnails are being made.
      const info = await api.call('app:info', {});
      const storedWhenAnswered = stored;
      expect(info.version).toBeTruthy();
      const infos = await Promise.all(uploads);
      expect(storedWhenAnswered).toBeLessThan(files.length);
      const peak = kB(pid, 'VmHWM');
      expect((peak - before) / 1024).toBeLessThanOrEqual(300);

      // Every file is attached; a bomb's preview is its original, the others' a thumbnail.
      for (const [i, file] of files.entries()) {
        expect(infos[i]).toMatchObject({ kind: 'image', size: file.bytes.length });
        const preview = await api.call('attachments:preview', { id: infos[i].id });
        if (preview.status !== 'ok') throw new Error(`${file.name}: ${JSON.stringify(preview)}`);
        const bytes = Buffer.from(preview.dataUrl.split(',')[1], 'base64');
        if (file.thumbnail) expect(imageSize(bytes)).toEqual({ width: 512, height: 448 });
        else expect(bytes.equals(file.bytes)).toBe(true);
      }
    },
    120_000,
  );
});
