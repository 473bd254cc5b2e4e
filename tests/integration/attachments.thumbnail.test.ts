// Thumbnails through the contract and the real core: a large image gets a thumbnail of at
// most 512 px when it is stored, the transcript's preview is that thumbnail, and the
// original is kept byte for byte for the viewer and for the model.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import photon from '@silvia-odwyer/photon-node';
import type { ScriptedServer } from '../support/scriptedServer';
import { chatCorePerTest, TEST_KEY, type ChatHarness } from '../support/chatHarness';
import { imageSize, PNG_1X1, pngOfSize } from '../support/attachmentFixtures';
import { ATTACHMENTS_DIR } from '../../src/main/core/attachments/attachmentFiles';

let server: ScriptedServer;
let h: ChatHarness;

const perTest = chatCorePerTest((s, c) => {
  server = s;
  h = c;
});

type Part = { type: string; text?: string; image_url?: { url: string } };

const upload = (name: string, bytes: Buffer) =>
  h.call('attachments:add', { name, mimeType: '', data: bytes.toString('base64') });

async function previewBytes(id: string, full?: boolean): Promise<{ type: string; bytes: Buffer }> {
  const preview = await h.call('attachments:preview', full ? { id, full } : { id });
  if (preview.status !== 'ok') throw new Error(`no preview: ${JSON.stringify(preview)}`);
  const [, type, data] = /^data:([^;]+);base64,(.*)$/.exec(preview.dataUrl)!;
  return { type, bytes: Buffer.from(data, 'base64') };
}

/** A 2000×1500 JPEG, left half red and right half blue. */
function jpegOfSize(width: number, height: number): Buffer {
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++)
    pixels.set(i % width < width / 2 ? [220, 30, 30, 255] : [30, 30, 220, 255], i * 4);
  const image = new photon.PhotonImage(pixels, width, height);
  try {
    return Buffer.from(image.get_bytes_jpeg(90));
  } finally {
    image.free();
  }
}

/** `jpeg` with an EXIF segment saying how to turn it (6: a quarter turn clockwise). */
function withOrientation(jpeg: Buffer, orientation: number): Buffer {
  const tiff = Buffer.from([
    0x4d,
    0x4d,
    0,
    0x2a,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const segment = Buffer.concat([Buffer.from([0xff, 0xe1, 0, payload.length + 2]), payload]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** The RGB of a pixel of a PNG or JPEG thumbnail. */
function pixelAt(bytes: Buffer, x: number, y: number): number[] {
  const image = photon.PhotonImage.new_from_byteslice(bytes);
  try {
    const at = (y * image.get_width() + x) * 4;
    return Array.from(image.get_raw_pixels().subarray(at, at + 3));
  } finally {
    image.free();
  }
}

const near = (rgb: number[], expected: number[]) => rgb.every((v, i) => Math.abs(v - expected[i]) <= 12);

describe('thumbnails', () => {
  it('stores a 2000×1500 PNG with a thumbnail of 512×384, and keeps the original unchanged', async () => {
    const original = pngOfSize(2000, 1500);
    const stored = await upload('wide.png', original);
    expect(stored).toMatchObject({ kind: 'image', mimeType: 'image/png', size: original.length });

    const thumbnail = await previewBytes(stored.id);
    expect(thumbnail.type).toBe('image/png');
    expect(imageSize(thumbnail.bytes)).toEqual({ width: 512, height: 384 });
    expect(thumbnail.bytes.length).toBeLessThan(original.length);
    // Still the same picture: red on the left, blue on the right.
    expect(pixelAt(thumbnail.bytes, 10, 100)).toEqual([220, 30, 30]);
    expect(pixelAt(thumbnail.bytes, 500, 300)).toEqual([30, 30, 220]);

    // The original is stored and served unchanged: to the viewer, and to a model that sees images.
    const sha = (await import('node:crypto')).createHash('sha256').update(original).digest('hex');
    expect(fs.readFileSync(path.join(h.dataDir, ATTACHMENTS_DIR, sha)).equals(original)).toBe(true);
    expect((await previewBytes(stored.id, true)).bytes.equals(original)).toBe(true);
    h = await perTest.restart({
      env: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: TEST_KEY, STEPWISE_MODEL: 'gpt-4o' },
    });
    server.push({ text: 'Red and blue.' }, { text: 'Title' });
    const conversation = await h.newConversation('Photo');
    const again = await upload('wide.png', original);
    const from = h.events.length;
    await h.call('messages:send', { conversationId: conversation.id, content: 'Colours?', attachments: [again.id] });
    await h.waitIdle(conversation.id, from);
    const sent = server.streamRequests().at(-1)!.body.messages.at(-1)!.content as unknown as Part[];
    expect(sent[1]).toEqual({
      type: 'image_url',
      image_url: { url: `data:image/png;base64,${original.toString('base64')}` },
    });
  });

  it('makes a JPEG’s thumbnail a JPEG, portrait images fit by their height, and a small image is its own thumbnail', async () => {
    const photo = jpegOfSize(1500, 2000);
    const stored = await upload('tall.jpg', photo);
    const thumbnail = await previewBytes(stored.id);
    expect(thumbnail.type).toBe('image/jpeg');
    expect(imageSize(thumbnail.bytes)).toEqual({ width: 384, height: 512 });
    expect((await previewBytes(stored.id, true)).bytes.equals(photo)).toBe(true);

    expect(near(pixelAt(thumbnail.bytes, 10, 10), [220, 30, 30])).toBe(true);

    // A phone photo stored on its side: the thumbnail is turned as the browser shows the original.
    const sideways = withOrientation(jpegOfSize(2000, 1500), 6);
    const turned = await previewBytes((await upload('phone.jpg', sideways)).id);
    expect(imageSize(turned.bytes)).toEqual({ width: 384, height: 512 });
    // The left (red) half of the stored image is the top once turned clockwise.
    expect(near(pixelAt(turned.bytes, 192, 20), [220, 30, 30])).toBe(true);
    expect(near(pixelAt(turned.bytes, 192, 490), [30, 30, 220])).toBe(true);

    const dot = await upload('dot.png', PNG_1X1);
    expect((await previewBytes(dot.id)).bytes.equals(PNG_1X1)).toBe(true);
    expect(
      fs.readdirSync(path.join(h.dataDir, ATTACHMENTS_DIR)).filter((name) => name.endsWith('.thumb')),
    ).toHaveLength(2);
  });

  it('stores an image it cannot decode without a thumbnail: the original is shown, as before', async () => {
    // A PNG signature on bytes that are not a PNG.
    const broken = Buffer.concat([PNG_1X1.subarray(0, 8), Buffer.from('not really an image')]);
    const stored = await upload('broken.png', broken);
    expect(stored).toMatchObject({ kind: 'image' });
    expect((await previewBytes(stored.id)).bytes.equals(broken)).toBe(true);
  });
});
