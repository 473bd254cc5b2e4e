// The user's data is private whatever the umask: the data directory is 0700 and every
// file Stepwise writes there (database, settings, keys, mcp.json, exports) is 0600.
// Existing files lose group and other access at start-up.
// Windows has no such bits; there the helpers only write.
import fs from 'node:fs';
import path from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

/** Only our own files: chmod on someone else's would fail, and is not ours to decide. */
function ownedByUs(stat: fs.Stats): boolean {
  return typeof process.getuid !== 'function' || stat.uid === process.getuid();
}

/**
 * Takes away every permission of group and others. The owner's own bits stay as they are:
 * a file the user made read-only, or unreadable, is theirs to decide (and to be told about).
 */
function restrictToOwner(target: string, stat: fs.Stats): void {
  if (posix && ownedByUs(stat) && (stat.mode & 0o077) !== 0) fs.chmodSync(target, stat.mode & 0o700);
}

/** Creates the directory (and parents) 0700; an existing one loses group and other access. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  restrictToOwner(dir, fs.statSync(dir));
}

/** Takes group and other access from a file we own; true if others had any. */
export function makePrivate(file: string): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return false;
  }
  if (!stat.isFile()) return false;
  restrictToOwner(file, stat);
  return posix && ownedByUs(stat) && (stat.mode & 0o077) !== 0;
}

/** Creates an empty 0600 file unless one exists, so a library that then opens it inherits the mode. */
export function touchPrivate(file: string): void {
  try {
    // O_EXCL: an existing file is never opened here. Closing a descriptor would drop this
    // process's POSIX locks on it, and SQLite's locks are exactly those.
    fs.closeSync(
      fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, PRIVATE_FILE_MODE),
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  makePrivate(file);
}

/**
 * Start-up repair: the data directory back to 0700 and each regular file directly in it
 * back to 0600 (files from older versions, or written under a permissive umask). Symlinks
 * and subdirectories are left alone. Best effort: a file we cannot fix stays as it is.
 * Returns the names of the files others could read or write before.
 */
export function fixPrivateModes(dataDir: string): string[] {
  if (!posix) return [];
  ensurePrivateDir(dataDir);
  const fixed: string[] = [];
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    try {
      if (makePrivate(path.join(dataDir, entry.name))) fixed.push(entry.name);
    } catch {
      // A file we cannot chmod (another owner, a read-only mount) is not a reason to stop.
    }
  }
  return fixed;
}
