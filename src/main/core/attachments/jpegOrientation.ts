// The EXIF orientation of a JPEG (1–8; 1 when it has none). Phones store photos as the
// sensor saw them and say in EXIF how to turn them; browsers honour it when they show the
// original, and a thumbnail re-encoded without EXIF has to be turned itself.

/** Reads the segments before the image data only: a few hundred bytes to a few KB. */
export function jpegOrientation(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.byteLength < 4 || view.getUint16(0) !== 0xffd8) return 1;
  let at = 2;
  while (at + 4 <= view.byteLength && bytes[at] === 0xff) {
    const marker = bytes[at + 1];
    // Start of scan or end of image: no EXIF before the image data.
    if (marker === 0xda || marker === 0xd9) return 1;
    const length = view.getUint16(at + 2);
    if (marker === 0xe1 && isExif(bytes, at + 4)) return orientationIn(view, at + 10, at + 2 + length);
    at += 2 + length;
  }
  return 1;
}

function isExif(bytes: Uint8Array, at: number): boolean {
  return [0x45, 0x78, 0x69, 0x66, 0, 0].every((byte, i) => bytes[at + i] === byte);
}

/** Tag 0x0112 in IFD0 of the TIFF structure at `tiff` (bounded by `end`); 1 when absent or malformed. */
function orientationIn(view: DataView, tiff: number, end: number): number {
  if (tiff + 8 > end || end > view.byteLength) return 1;
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) return 1;
  const little = order === 0x4949;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  if (ifd + 2 > end) return 1;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (view.getUint16(entry, little) !== 0x0112) continue;
    const value = view.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}
