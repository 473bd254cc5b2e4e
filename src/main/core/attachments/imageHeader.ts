// An image's size and how much memory decoding it takes, read from its header before any
// decoder runs. A few hundred kB of PNG can say 16000×16000: the decoder would allocate
// what the header says (256 MB for grayscale, then 1 GB more as RGBA), so the header is
// where a decompression bomb is refused. `null`: a header this reader does not know, and
// the image gets no thumbnail (the original is shown).

export interface ImageHeader {
  width: number;
  height: number;
  /**
   * Bytes per pixel the decoder holds besides the RGBA image it returns: its own buffer in
   * the file's format (16-bit PNG: 8 for RGBA), a JPEG's component planes and a progressive
   * JPEG's coefficients, a GIF's frame beside its canvas.
   */
  decoderBytesPerPixel: number;
}

/** Reads the header of a PNG, JPEG, WebP or GIF (the types attachments accept). */
export function readImageHeader(bytes: Uint8Array, mimeType: string): ImageHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const header =
      mimeType === 'image/png'
        ? png(bytes, view)
        : mimeType === 'image/jpeg'
          ? jpeg(bytes, view)
          : mimeType === 'image/webp'
            ? webp(bytes, view)
            : mimeType === 'image/gif'
              ? gif(bytes, view)
              : null;
    return header && header.width > 0 && header.height > 0 ? header : null;
  } catch {
    // A header cut short (DataView reads past the end throw RangeError).
    return null;
  }
}

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));

function png(bytes: Uint8Array, view: DataView): ImageHeader | null {
  if (ascii(bytes, 12, 4) !== 'IHDR') return null;
  const depth = view.getUint8(24);
  const colour = view.getUint8(25);
  // Grayscale, RGB, palette (expanded to RGBA at most), gray + alpha, RGBA.
  const channels = ({ 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 } as Record<number, number>)[colour];
  if (!channels) return null;
  return {
    width: view.getUint32(16),
    height: view.getUint32(20),
    decoderBytesPerPixel: colour === 3 ? 4 : channels * (depth === 16 ? 2 : 1),
  };
}

function jpeg(bytes: Uint8Array, view: DataView): ImageHeader | null {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd9)) {
      at += 2; // markers without a length
      continue;
    }
    // Start of frame: SOF0–SOF15 but DHT (c4), JPG (c8) and DAC (cc).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const components = view.getUint8(at + 9);
      const progressive = marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce;
      // Samples per pixel: chroma is often stored at half size each way (4:2:0, 1.5 in all).
      const factors = Array.from({ length: components }, (_, i) => view.getUint8(at + 11 + 3 * i));
      const most = Math.max(...factors.map((f) => (f >> 4) * (f & 15)));
      const samples = factors.reduce((sum, f) => sum + ((f >> 4) * (f & 15)) / most, 0);
      // Component planes and the converted output (at least a byte per sample each); a
      // progressive file also keeps every coefficient (2 bytes per sample) until its last scan.
      return {
        width: view.getUint16(at + 7),
        height: view.getUint16(at + 5),
        decoderBytesPerPixel: components * 2 + (progressive ? 2 * samples : 0),
      };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

function webp(bytes: Uint8Array, view: DataView): ImageHeader | null {
  const chunk = ascii(bytes, 12, 4);
  // Lossy decodes through YUV planes to RGB(A); lossless to RGBA.
  const decoderBytesPerPixel = 6;
  if (chunk === 'VP8X') {
    const width = 1 + (view.getUint16(24, true) | (view.getUint8(26) << 16));
    const height = 1 + (view.getUint16(27, true) | (view.getUint8(29) << 16));
    return { width, height, decoderBytesPerPixel };
  }
  if (chunk === 'VP8 ') {
    if (view.getUint8(23) !== 0x9d || view.getUint8(24) !== 0x01 || view.getUint8(25) !== 0x2a) return null;
    return {
      width: view.getUint16(26, true) & 0x3fff,
      height: view.getUint16(28, true) & 0x3fff,
      decoderBytesPerPixel,
    };
  }
  if (chunk === 'VP8L') {
    if (view.getUint8(20) !== 0x2f) return null;
    const bits = view.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff), decoderBytesPerPixel };
  }
  return null;
}

function gif(bytes: Uint8Array, view: DataView): ImageHeader | null {
  let width = view.getUint16(6, true);
  let height = view.getUint16(8, true);
  const flags = view.getUint8(10);
  let at = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 7) + 1) : 0);
  // The first frame may be larger than the screen it sits on: take the larger of both.
  while (at < bytes.length) {
    const block = bytes[at];
    if (block === 0x2c) {
      width = Math.max(width, view.getUint16(at + 1, true) + view.getUint16(at + 5, true));
      height = Math.max(height, view.getUint16(at + 3, true) + view.getUint16(at + 7, true));
      break;
    }
    if (block !== 0x21) break;
    // An extension: its label, then sub-blocks until an empty one.
    at += 2;
    while (at < bytes.length && bytes[at] !== 0) at += 1 + bytes[at];
    at += 1;
  }
  // The canvas (RGBA) and the frame being drawn onto it.
  return { width, height, decoderBytesPerPixel: 8 };
}
