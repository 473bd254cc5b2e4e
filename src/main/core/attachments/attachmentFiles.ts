// The bytes of attachments, once per content: <dataDir>/attachments/<sha256>, written
// atomically and private (0600 in a 0700 folder) like the rest of the data directory.
// What is derived from a file's content sits beside it as <sha256>.<derived>: a PDF's text
// (`txt`, written by the PDF worker) and an image's thumbnail (`thumb`).
import { createHash, webcrypto } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../storage/privateFiles';
import { writePrivateFile } from '../storage/writePrivateFile';

export const ATTACHMENTS_DIR = 'attachments';

/** A file that is gone from disk is a value the caller shows, not an exception. */
export type ReadResult = { ok: true; bytes: Buffer } | { ok: false; missing: true; message: string };

const SHA256 = /^[0-9a-f]{64}$/;
/** `<sha256>.<derived>`, and the temporary files a writer leaves when it is stopped mid-write. */
const DERIVED_NAME = /^([0-9a-f]{64})\.(.+)$/;

export type Derived = 'txt' | 'thumb';
const DERIVED: readonly string[] = ['txt', 'thumb'] satisfies Derived[];

/** Characters of base64 decoded per turn of the event loop (a multiple of 4): a short turn each. */
const DECODE_CHUNK = 1 << 20;

/**
 * Base64 → bytes, refusing anything Node's lenient decoder would skip (spaces, `*`, …):
 * a chunk's decoded length then falls short of what its length promises. Decoded a chunk
 * per turn of the event loop: a regex check over a large upload and its decoding in one
 * go held the host's main thread (docs/performance.md, "Figures behind the code").
 */
export async function decodeBase64(data: string): Promise<Buffer | null> {
  if (data.length % 4 === 1) return null;
  const bytes = Buffer.allocUnsafe(Buffer.byteLength(data, 'base64'));
  let written = 0;
  for (let at = 0; at < data.length; at += DECODE_CHUNK) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    const chunk = data.slice(at, at + DECODE_CHUNK);
    const decoded = bytes.write(chunk, written, 'base64');
    if (decoded !== Buffer.byteLength(chunk, 'base64')) return null;
    written += decoded;
  }
  return written === bytes.length ? bytes : null;
}

export function createAttachmentFiles(dataDir: string) {
  const dir = path.join(dataDir, ATTACHMENTS_DIR);
  const fileOf = (sha256: string) => {
    // Only hashes we computed name files; anything else must never reach the file system.
    if (!SHA256.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return path.join(dir, sha256);
  };

  return {
    dir,
    sha256: (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex'),
    /** The same, hashed on the thread pool: hashing a large upload would hold the main thread. */
    async sha256Async(bytes: Buffer): Promise<string> {
      return Buffer.from(await webcrypto.subtle.digest('SHA-256', bytes)).toString('hex');
    },
    /** Stores the bytes unless the same content is stored already; returns its hash. */
    async put(bytes: Buffer, known?: string): Promise<string> {
      const sha256 = known ?? this.sha256(bytes);
      const file = fileOf(sha256);
      if (fs.existsSync(file) && fs.statSync(file).size === bytes.length) return sha256;
      ensurePrivateDir(dir);
      await writePrivateFile(file, bytes);
      return sha256;
    },
    read(sha256: string, name: string): ReadResult {
      try {
        return { ok: true, bytes: fs.readFileSync(fileOf(sha256)) };
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const why =
          code === 'ENOENT'
            ? 'its file is no longer in the attachments folder'
            : `its file cannot be read (${code ?? String(error)})`;
        return { ok: false, missing: true, message: `The attachment ${name} is missing: ${why}.` };
      }
    },
    exists: (sha256: string) => fs.existsSync(fileOf(sha256)),
    /** Where what is derived from a stored file lives; creates the folder for a writer. */
    derivedPath(sha256: string, derived: Derived): string {
      ensurePrivateDir(dir);
      return `${fileOf(sha256)}.${derived}`;
    },
    hasDerived: (sha256: string, derived: Derived) => fs.existsSync(`${fileOf(sha256)}.${derived}`),
    /** What was derived from a stored file, or null when nothing was (or it is gone). */
    readDerived(sha256: string, derived: Derived): Buffer | null {
      try {
        return fs.readFileSync(`${fileOf(sha256)}.${derived}`);
      } catch {
        return null;
      }
    },
    async putDerived(sha256: string, derived: Derived, bytes: Uint8Array): Promise<void> {
      ensurePrivateDir(dir);
      await writePrivateFile(
        `${fileOf(sha256)}.${derived}`,
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      );
    },
    /** Deletes every stored file whose hash is not in `keep`, what was derived from it, and leftovers of writes. */
    prune(keep: Set<string>): number {
      let removed = 0;
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        return 0;
      }
      for (const name of names) {
        const derived = DERIVED_NAME.exec(name);
        const kept = derived
          ? keep.has(derived[1]) && DERIVED.includes(derived[2])
          : !SHA256.test(name) || keep.has(name);
        if (kept) continue;
        try {
          fs.rmSync(path.join(dir, name));
          removed++;
        } catch {
          // Left for the next start.
        }
      }
      return removed;
    },
  };
}

export type AttachmentFiles = ReturnType<typeof createAttachmentFiles>;

/** A file's bytes as base64 for a JSON export, or null when it is gone from disk. */
export function base64Of(files: AttachmentFiles) {
  return (file: { sha256: string; name: string }): string | null => {
    const read = files.read(file.sha256, file.name);
    return read.ok ? read.bytes.toString('base64') : null;
  };
}
