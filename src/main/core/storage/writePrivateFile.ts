// Whole files written atomically and private (privateFiles.ts says why 0600). Apart from
// privateFiles.ts so that what a start runs first (the data dir's lock and modes) does not
// load the writer.
import writeFileAtomic from 'write-file-atomic';
import { PRIVATE_FILE_MODE } from './privateFiles';

/** Writes a whole file atomically (temp file, fsync, rename), mode 0600. */
export function writePrivateFileSync(file: string, data: string | Buffer): void {
  writeFileAtomic.sync(file, data, { mode: PRIVATE_FILE_MODE });
}

export function writePrivateFile(file: string, data: string | Buffer): Promise<void> {
  return writeFileAtomic(file, data, { mode: PRIVATE_FILE_MODE });
}
