// Why the data could not be opened, in words the user can act on. None of these moves,
// rewrites or deletes a file: only real corruption (openDatabase) does that.

/** Start-up refused for a reason that is not damage to the data; the message says what to do. */
export class StorageError extends Error {
  constructor(
    readonly kind: 'in-use' | 'busy' | 'unreadable' | 'read-only-dir',
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export function inUseByAnotherStepwise(dataDir: string, holder: string | null): StorageError {
  const who = holder ? `Another Stepwise (${holder})` : 'Another Stepwise';
  return new StorageError(
    'in-use',
    `${who} is already using the data directory ${dataDir}. Close it and start again, or use another data directory.`,
  );
}

export function databaseBusy(file: string): StorageError {
  return new StorageError(
    'busy',
    `The database ${file} is in use by another program (another Stepwise?). Close it and start again. The file was not changed.`,
  );
}

export function unreadable(file: string, detail: string): StorageError {
  return new StorageError(
    'unreadable',
    `Stepwise cannot read ${file} (${detail}); check the file's permissions: it must be readable and writable by you. The file was not changed.`,
  );
}

export function readOnlyDataDir(dataDir: string, detail: string): StorageError {
  return new StorageError(
    'read-only-dir',
    `Stepwise cannot write to its data directory ${dataDir} (${detail}). Make it writable, or use another data directory. Nothing was changed.`,
  );
}

export const errorCode = (error: unknown): string => String((error as { code?: unknown })?.code ?? '');

export const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Errors that say "not allowed" or "not possible here", never "damaged". */
export function isPermissionError(error: unknown): boolean {
  return ['EACCES', 'EPERM', 'EROFS', 'SQLITE_READONLY', 'SQLITE_PERM', 'SQLITE_AUTH', 'SQLITE_CANTOPEN'].some((code) =>
    errorCode(error).startsWith(code),
  );
}

export function isBusyError(error: unknown): boolean {
  return ['SQLITE_BUSY', 'SQLITE_LOCKED'].some((code) => errorCode(error).startsWith(code));
}

/** The only codes that mean the bytes of the file are not a sound database. */
export function isCorruptionError(error: unknown): boolean {
  return ['SQLITE_CORRUPT', 'SQLITE_NOTADB'].some((code) => errorCode(error).startsWith(code));
}
