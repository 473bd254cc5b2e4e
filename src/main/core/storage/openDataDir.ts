// The first step of every start (desktop app and browser host): make sure the data
// directory is ours alone — private, writable, and not used by another Stepwise — before
// anything in it is read or repaired.
import fs from 'node:fs';
import { acquireInstanceLock, type InstanceLock } from './instanceLock';
import { ensurePrivateDir, fixPrivateModes } from './privateFiles';
import { errorText, isPermissionError, readOnlyDataDir } from './storageErrors';

/** Creates the directory 0700 if needed; a read-only one is refused with its own message. */
export function prepareWritableDir(dataDir: string): void {
  try {
    ensurePrivateDir(dataDir);
    fs.accessSync(dataDir, fs.constants.W_OK);
  } catch (error) {
    if (isPermissionError(error)) throw readOnlyDataDir(dataDir, errorText(error));
    throw error;
  }
}

export interface DataDirLock extends InstanceLock {
  /** Files in the directory that other users could read or write until this start fixed them. */
  madePrivate: string[];
}

export function openDataDir(dataDir: string, host: string): DataDirLock {
  prepareWritableDir(dataDir);
  const lock = acquireInstanceLock(dataDir, host);
  return { ...lock, madePrivate: fixPrivateModes(dataDir) };
}
