// An attached image's thumbnail, made once when the file is stored: at most 512 px on its
// long side, so the transcript never decodes a 10 MB photo to show a chip. Decoding and
// resizing a photo takes a noticeable time (photon, the Rust `image` crate in wasm: no
// native binary to fetch; docs/performance.md), so it runs in a worker thread with a time budget.
// Memory is bounded before anything is decoded: the header says how large the image is, an
// image whose decode would need more than the budget gets no thumbnail, and the workers
// running at once (one per core at most) share that budget.
import os from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { jpegOrientation } from './jpegOrientation';
import { readImageHeader } from './imageHeader';
import { createSlots } from './thumbnailSlots';

/** The long side of a thumbnail, in pixels. */
export const THUMBNAIL_EDGE = 512;

/** Longer than this and the image is stored without a thumbnail (the original is shown). */
export const THUMBNAIL_TIME_MS = 30_000;

/** The most pixels an image may have to get a thumbnail: its RGBA image is then at most 96 MB. */
export const THUMBNAIL_MAX_PIXELS = 24_000_000;

/**
 * The memory all thumbnail workers' decodes may take together (and so one image's at most).
 * Measured: photon holds the decoder's own buffer, the RGBA image and a copy of it for
 * the resize, about (decoder bytes + 8) per pixel: 10.9 MB per megapixel for an 8-bit
 * grayscale or RGB PNG, 15.9 for a 16-bit RGBA one, 12.8 for a baseline RGB JPEG.
 * 224 MB is a 16-megapixel baseline JPEG, a 12-megapixel progressive one, or an
 * 18-megapixel RGBA screenshot (PNG). With a worker's own 15–20 MB, two decodes at once
 * stay within 300 MB.
 */
export const THUMBNAIL_MEMORY_BYTES = 224 * 1024 * 1024;

/** The worker's own V8 heap: photon's buffers live in wasm memory, outside it; the JS side is small. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8, stackSizeMb: 4 };

const slots = createSlots({ workers: Math.max(1, os.availableParallelism()), bytes: THUMBNAIL_MEMORY_BYTES });

/** Thumbnail workers running and waiting now (tests). */
export const thumbnailSlots = () => slots.state();

export type ThumbnailResult =
  /** Encoded as JPEG for a JPEG, else PNG (which keeps transparency). */
  | { thumbnail: Uint8Array; width: number; height: number }
  /** Already within the edge: the original is its own thumbnail (a small animated GIF stays animated). */
  | { small: true }
  /** Not decodable, or over a budget: shown as the original, as before thumbnails. */
  | { error: string };

const megapixels = (pixels: number) => `${(pixels / 1e6).toFixed(1)} megapixels`;

// Plain CommonJS evaluated in the worker, like the PDF reader's: nothing of ours to find at
// run time in any build. A GIF decodes to its first frame, so a large animated GIF gets a
// still thumbnail; the viewer shows the original. The `image` crate's default limits refuse
// to allocate more than 512 MB for one image, and its header was checked before. A JPEG's
// EXIF orientation is applied to the small image (the re-encoded thumbnail has no EXIF).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let image, small;
/** \`small\` (w×h) turned as EXIF orientation o says: [image, width, height]. */
function orient(photon, small, w, h, o) {
  const from = small.get_raw_pixels();
  const turned = o >= 5;
  const W = turned ? h : w, H = turned ? w : h;
  const to = new Uint8Array(from.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [X, Y] =
        o === 2 ? [w - 1 - x, y] : o === 3 ? [w - 1 - x, h - 1 - y] : o === 4 ? [x, h - 1 - y] :
        o === 5 ? [y, x] : o === 6 ? [h - 1 - y, x] : o === 7 ? [h - 1 - y, w - 1 - x] : [y, w - 1 - x];
      to.set(from.subarray((y * w + x) * 4, (y * w + x) * 4 + 4), (Y * W + X) * 4);
    }
  }
  return [new photon.PhotonImage(to, W, H), W, H];
}
try {
  const photon = require(workerData.photon);
  image = photon.PhotonImage.new_from_byteslice(workerData.bytes);
  const width = image.get_width();
  const height = image.get_height();
  const long = Math.max(width, height);
  if (long <= workerData.edge) {
    parentPort.postMessage({ small: true });
  } else {
    const w = Math.max(1, Math.round((width * workerData.edge) / long));
    const h = Math.max(1, Math.round((height * workerData.edge) / long));
    small = photon.resize(image, w, h, photon.SamplingFilter.Triangle);
    const [shown, shownWidth, shownHeight] = workerData.orientation > 1 ? orient(photon, small, w, h, workerData.orientation) : [small, w, h];
    const thumbnail = workerData.jpeg ? shown.get_bytes_jpeg(85) : shown.get_bytes();
    parentPort.postMessage({ thumbnail, width: shownWidth, height: shownHeight }, [thumbnail.buffer]);
  }
} catch (error) {
  parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
`;

let photonPath: string | null = null;

export async function makeThumbnail(
  bytes: Buffer,
  mimeType: string,
  timeMs = THUMBNAIL_TIME_MS,
): Promise<ThumbnailResult> {
  const header = readImageHeader(bytes, mimeType);
  if (!header) return { error: 'its header could not be read' };
  const { width, height, decoderBytesPerPixel } = header;
  if (Math.max(width, height) <= THUMBNAIL_EDGE) return { small: true };
  const pixels = width * height;
  if (pixels > THUMBNAIL_MAX_PIXELS)
    return {
      error: `it is ${width}×${height} (${megapixels(pixels)}); thumbnails are made up to ${megapixels(THUMBNAIL_MAX_PIXELS)}`,
    };
  const memory = pixels * (decoderBytesPerPixel + 8);
  if (memory > THUMBNAIL_MEMORY_BYTES)
    return {
      error: `decoding its ${width}×${height} pixels would need ${Math.round(memory / 2 ** 20)} MB; thumbnails may use ${THUMBNAIL_MEMORY_BYTES / 2 ** 20} MB`,
    };
  const release = await slots.acquire(memory);
  try {
    return await runWorker(bytes, mimeType, timeMs);
  } finally {
    release();
  }
}

function runWorker(bytes: Buffer, mimeType: string, timeMs: number): Promise<ThumbnailResult> {
  photonPath ??= createRequire(import.meta.url).resolve('@silvia-odwyer/photon-node');
  // A copy the worker owns (the Buffer may be a slice of a shared pool), moved, not cloned.
  const owned = new Uint8Array(bytes);
  const orientation = mimeType === 'image/jpeg' ? jpegOrientation(owned) : 1;
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        photon: photonPath,
        bytes: owned,
        edge: THUMBNAIL_EDGE,
        jpeg: mimeType === 'image/jpeg',
        orientation,
      },
      transferList: [owned.buffer],
      resourceLimits: WORKER_LIMITS,
      stdout: true,
      stderr: true,
    });
    // Released only once the worker is gone: its memory is what the slot stands for.
    const settle = (result: ThumbnailResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate().then(() => resolve(result));
    };
    const timer = setTimeout(() => settle({ error: `making its thumbnail took longer than ${timeMs} ms` }), timeMs);
    worker.on('message', (result: ThumbnailResult) => settle(result));
    worker.on('error', (error: Error) => settle({ error: error.message }));
    worker.on('exit', () => settle({ error: 'the thumbnail maker stopped unexpectedly' }));
  });
}
