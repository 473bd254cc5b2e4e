// Real files for attachment tests: a 1×1 PNG, large PNGs written with zlib, and PDFs written by
// hand (a valid cross-reference table, Helvetica text) so pdf.js extracts real text from them.
import zlib from 'node:zlib';

/** A 1×1 red PNG. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** A one-page PDF whose text is `text` (ASCII without parentheses or backslashes). */
export function pdfWithText(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A PDF of `pages` pages, each `linesPerPage` lines of text (ASCII without parentheses or
 * backslashes) made by `line(page, line)`: big files for the parse budget and the bench.
 */
export function pdfWithPages(
  pages: number,
  linesPerPage: number,
  line: (page: number, line: number) => string,
  /** Pages under intermediate nodes of this many kids each (a balanced tree) instead of one flat list. */
  fanout?: number,
): Buffer {
  const parts: string[] = ['%PDF-1.4\n'];
  let length = parts[0].length;
  const offsets: number[] = [];
  const add = (body: string) => {
    offsets.push(length);
    const object = `${offsets.length} 0 obj\n${body}\nendobj\n`;
    parts.push(object);
    length += object.length;
  };
  add('<< /Type /Catalog /Pages 2 0 R >>');
  // With a fanout, node k (object 4 + 2 * pages + k) holds pages k * fanout onwards.
  const nodes = fanout ? Math.ceil(pages / fanout) : 0;
  const node = (k: number) => 4 + 2 * pages + k;
  const refs = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, p) => `${4 + 2 * (from + p)} 0 R`).join(' ');
  const rootKids = fanout ? Array.from({ length: nodes }, (_, k) => `${node(k)} 0 R`).join(' ') : refs(0, pages);
  add(`<< /Type /Pages /Kids [${rootKids}] /Count ${pages} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let p = 0; p < pages; p++) {
    const parent = fanout ? node(Math.floor(p / fanout)) : 2;
    add(
      `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Contents ${5 + 2 * p} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
    );
    const lines = Array.from({ length: linesPerPage }, (_, l) => `(${line(p, l)}) Tj T*`).join('\n');
    const stream = `BT /F1 8 Tf 10 TL 36 760 Td\n${lines}\nET`;
    add(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  for (let k = 0; k < nodes; k++) {
    const to = Math.min(pages, (k + 1) * fanout!);
    add(`<< /Type /Pages /Parent 2 0 R /Kids [${refs(k * fanout!, to)}] /Count ${to - k * fanout!} >>`);
  }
  const xref = length;
  parts.push(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n`);
  parts.push(offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join(''));
  parts.push(`trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/**
 * A `width`×`height` RGB PNG written with zlib alone (no image library): the left half red,
 * the right half blue, so a thumbnail can be checked against the original.
 */
export function pngOfSize(width: number, height: number): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(x < width / 2 ? [220, 30, 30] : [30, 30, 220], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's or JPEG's width and height, read from its header. */
export function imageSize(bytes: Buffer): { width: number; height: number } {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE))
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  // JPEG: walk the segments to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC).
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1];
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { width: bytes.readUInt16BE(at + 7), height: bytes.readUInt16BE(at + 5) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  throw new Error('not a PNG or JPEG');
}

/**
 * A `width`×`height` PNG of zero bytes (black, or transparent) in PNG colour type `colour`,
 * deflated as a stream so the raw image never exists here: a 16000×16000 grayscale one is
 * about 250 kB, a decompression bomb. `tagged(text)` gives copies that differ by a tEXt
 * chunk, so each is stored as its own content.
 */
export async function zeroPng(width: number, height: number, colour: 0 | 2 | 6): Promise<(tag: string) => Buffer> {
  const channels = { 0: 1, 2: 3, 6: 4 }[colour];
  // Each row is a filter byte (0, none) and its pixels, all zero.
  let left = height * (1 + width * channels);
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => deflate.once('end', resolve));
  const block = Buffer.alloc(8 * 1024 * 1024);
  while (left > 0) {
    const piece = left >= block.length ? block : block.subarray(0, left);
    left -= piece.length;
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await ended;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, colour, 0, 0, 0], 8);
  const start = Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header)]);
  const rest = Buffer.concat([pngChunk('IDAT', Buffer.concat(parts)), pngChunk('IEND', Buffer.alloc(0))]);
  return (tag) => Buffer.concat([start, pngChunk('tEXt', Buffer.from(`Comment\0${tag}`, 'latin1')), rest]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** `jpeg` with the size in its start-of-frame header changed to `width`×`height` (its data unchanged). */
export function jpegClaimingSize(jpeg: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(jpeg);
  let at = 2;
  while (at < copy.length) {
    const marker = copy[at + 1];
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      copy.writeUInt16BE(height, at + 5);
      copy.writeUInt16BE(width, at + 7);
      return copy;
    }
    at += 2 + copy.readUInt16BE(at + 2);
  }
  throw new Error('not a JPEG');
}
