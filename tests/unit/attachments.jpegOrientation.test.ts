// A JPEG's EXIF orientation, read from the segments before its image data: both byte
// orders, no EXIF, and broken or truncated segments read as "as stored" (1), never a throw.
import { describe, expect, it } from 'vitest';
import { jpegOrientation } from '../../src/main/core/attachments/jpegOrientation';

const SOI = [0xff, 0xd8];
const SOS = [0xff, 0xda, 0, 2];

function app1(tiff: number[]): number[] {
  const payload = [...Buffer.from('Exif\0\0', 'latin1'), ...tiff];
  return [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
}
const bigEndian = (orientation: number) => [
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
];
const littleEndian = (orientation: number) => [
  0x49,
  0x49,
  0x2a,
  0,
  8,
  0,
  0,
  0,
  1,
  0,
  0x12,
  0x01,
  3,
  0,
  1,
  0,
  0,
  0,
  orientation,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
];
const jpeg = (...segments: number[][]) => Uint8Array.from([...SOI, ...segments.flat(), ...SOS]);
// An APP0 (JFIF) segment before the EXIF one, as many cameras write.
const jfif = [0xff, 0xe0, 0, 16, ...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0];

describe('jpegOrientation', () => {
  it('reads the orientation in either byte order, after other segments', () => {
    expect(jpegOrientation(jpeg(app1(bigEndian(6))))).toBe(6);
    expect(jpegOrientation(jpeg(jfif, app1(littleEndian(8))))).toBe(8);
    expect(jpegOrientation(jpeg(jfif, app1(bigEndian(3))))).toBe(3);
  });

  it('is 1 without EXIF, for values out of range, and for broken or truncated data', () => {
    expect(jpegOrientation(jpeg(jfif))).toBe(1);
    expect(jpegOrientation(jpeg(app1(bigEndian(9))))).toBe(1);
    expect(jpegOrientation(Uint8Array.from([0x89, 0x50, 0x4e, 0x47]))).toBe(1);
    const whole = jpeg(app1(bigEndian(6)));
    for (let cut = 0; cut < whole.length - SOS.length; cut++)
      expect(jpegOrientation(whole.subarray(0, cut))).toBeGreaterThanOrEqual(1);
    // The IFD offset points past the segment.
    expect(jpegOrientation(jpeg(app1([0x4d, 0x4d, 0, 0x2a, 0, 0, 0xff, 0xff])))).toBe(1);
  });
});
