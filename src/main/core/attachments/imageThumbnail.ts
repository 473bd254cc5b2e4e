// An attached image's thumbnail, made once when the file is stored: at most 512 px on its
// long side, so the transcript never decodes a 10 MB photo to show a chip. Decoding and
// resizing take 0.2–0.7 s for a 2000×1500 image (photon, the Rust `image` crate in wasm:
// no native binary to fetch), so it runs in a worker thread with a time budget.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { jpegOrientation } from './jpegOrientation';

/** The long side of a thumbnail, in pixels. */
export const THUMBNAIL_EDGE = 512;

/** Longer than this and the image is stored without a thumbnail (the original is shown). */
export const THUMBNAIL_TIME_MS = 30_000;

export type ThumbnailResult =
  /** Encoded as JPEG for a JPEG, else PNG (which keeps transparency). */
  | { thumbnail: Uint8Array; width: number; height: number }
  /** Already within the edge: the original is its own thumbnail (a small animated GIF stays animated). */
  | { small: true }
  /** Not decodable, or over the budget: shown as the original, as before thumbnails. */
  | { error: string };

// Plain CommonJS evaluated in the worker, like the PDF reader's: nothing of ours to find at
// run time in any build. A GIF decodes to its first frame, so a large animated GIF gets a
// still thumbnail; the viewer shows the original. The `image` crate's default limits refuse
// to allocate more than 512 MB for one image, which bounds a decompression bomb. A JPEG's
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

export function makeThumbnail(bytes: Buffer, mimeType: string, timeMs = THUMBNAIL_TIME_MS): Promise<ThumbnailResult> {
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
      stdout: true,
      stderr: true,
    });
    const settle = (result: ThumbnailResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
      void worker.terminate();
    };
    const timer = setTimeout(() => settle({ error: `making its thumbnail took longer than ${timeMs} ms` }), timeMs);
    worker.on('message', (result: ThumbnailResult) => settle(result));
    worker.on('error', (error: Error) => settle({ error: error.message }));
    worker.on('exit', () => settle({ error: 'the thumbnail maker stopped unexpectedly' }));
  });
}
