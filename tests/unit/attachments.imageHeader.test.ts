// The header reader that decides, before any decoding, whether an image's thumbnail fits in
// memory; and the slots that let thumbnail workers run one per core within one budget.
import { describe, expect, it } from 'vitest';
import photon from '@silvia-odwyer/photon-node';
import { readImageHeader } from '../../src/main/core/attachments/imageHeader';
import { createSlots } from '../../src/main/core/attachments/thumbnailSlots';
import { jpegClaimingSize, pngOfSize, PNG_1X1 } from '../support/attachmentFixtures';

function encoded(width: number, height: number, as: 'jpeg' | 'webp'): Buffer {
  const image = new photon.PhotonImage(new Uint8Array(width * height * 4).fill(90), width, height);
  try {
    return Buffer.from(as === 'jpeg' ? image.get_bytes_jpeg(80) : image.get_bytes_webp());
  } finally {
    image.free();
  }
}

const PALETTE = [0, 0, 0, 255, 255, 255];
const COMMENT = [0x21, 0xfe, 3, 0x61, 0x62, 0x63, 0];

/** A GIF header: a `screen` logical screen with a global palette, a comment, and a frame of `frame` at (x, y). */
function gifHeader(screen: [number, number], frame: [number, number, number, number]): Buffer {
  const u16 = (n: number) => [n & 255, n >> 8];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...u16(screen[0]),
    ...u16(screen[1]),
    0x80, // a global colour table of 2 entries
    0,
    0,
    ...PALETTE,
    ...COMMENT,
    0x2c,
    ...frame.flatMap(u16),
    0,
  ]);
}

describe('readImageHeader', () => {
  it('reads the size and the decoder’s bytes per pixel of each accepted type', () => {
    expect(readImageHeader(pngOfSize(2000, 1500), 'image/png')).toEqual({
      width: 2000,
      height: 1500,
      decoderBytesPerPixel: 3,
    });
    expect(readImageHeader(encoded(64, 48, 'jpeg'), 'image/jpeg')).toMatchObject({ width: 64, height: 48 });
    expect(readImageHeader(encoded(64, 48, 'webp'), 'image/webp')).toMatchObject({ width: 64, height: 48 });
    expect(readImageHeader(gifHeader([300, 200], [0, 0, 300, 200]), 'image/gif')).toEqual({
      width: 300,
      height: 200,
      decoderBytesPerPixel: 8,
    });
  });

  it('takes what a header claims, and the larger of a GIF’s screen and first frame', () => {
    expect(readImageHeader(jpegClaimingSize(encoded(64, 64, 'jpeg'), 65000, 60000), 'image/jpeg')).toMatchObject({
      width: 65000,
      height: 60000,
    });
    expect(readImageHeader(gifHeader([10, 10], [5, 5, 60000, 40000]), 'image/gif')).toMatchObject({
      width: 60005,
      height: 40005,
    });
  });

  it('counts a progressive JPEG’s coefficients by its samples (4:2:0: 1.5 per pixel)', () => {
    const sof2 = Buffer.from([0xff, 0xd8, 0xff, 0xc2, 0, 17, 8, 0x0b, 0xb8, 0x0f, 0xa0, 3]);
    const components = Buffer.from([1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    expect(readImageHeader(Buffer.concat([sof2, components]), 'image/jpeg')).toEqual({
      width: 4000,
      height: 3000,
      decoderBytesPerPixel: 3 * 2 + 2 * 1.5,
    });
  });

  it('gives null for a header it cannot read', () => {
    expect(readImageHeader(PNG_1X1.subarray(0, 12), 'image/png')).toBeNull();
    expect(readImageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 2]), 'image/jpeg')).toBeNull();
    expect(readImageHeader(Buffer.from('RIFF\0\0\0\0WEBPVP9 ', 'latin1'), 'image/webp')).toBeNull();
  });
});

describe('thumbnail slots', () => {
  it('runs at most one per worker slot and within the memory budget, in order', async () => {
    const slots = createSlots({ workers: 2, bytes: 100 });
    const started: string[] = [];
    const take = (name: string, bytes: number) =>
      slots.acquire(bytes).then((release) => {
        started.push(name);
        return release;
      });
    const a = take('a', 60);
    const b = take('b', 60); // 120 > 100: waits for a
    const c = take('c', 10); // behind b, though it would fit
    const releaseA = await a;
    expect(started).toEqual(['a']);
    expect(slots.state()).toEqual({ running: 1, waiting: 2, bytes: 60 });
    releaseA();
    const releaseB = await b;
    const releaseC = await c;
    expect(started).toEqual(['a', 'b', 'c']);
    expect(slots.state()).toEqual({ running: 2, waiting: 0, bytes: 70 });
    const d = take('d', 10); // two running: no worker free
    expect(slots.state().waiting).toBe(1);
    releaseB();
    releaseB(); // twice is once
    (await d)();
    releaseC();
    expect(slots.state()).toEqual({ running: 0, waiting: 0, bytes: 0 });
  });
});
