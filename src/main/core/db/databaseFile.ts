// What a start reads before it loads the database code: the file's name and the schema
// version this build writes. The host checks them first and starts an update's worker
// before the migrations and their dependencies are loaded (host/main.ts).

export const DB_FILE = 'stepwise.db';

/** The last migration's version (migrations.ts fails to load when they disagree). */
export const LATEST_VERSION = 31;
