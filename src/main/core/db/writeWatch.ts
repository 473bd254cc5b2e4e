// Calls back into JavaScript when rows are written on this connection, whoever writes
// them (a service, an import, a cascade, a foreign key's action): TEMP triggers call one
// SQL function per watch. In-memory caches built on it are right by construction rather
// than by every writer remembering to tell them. Commits by other connections are not
// seen by triggers: pair a watch with `commitsElsewhere`.
import type { Db } from './openDatabase';

type Listener = (value: unknown) => void;

const watchesOf = new WeakMap<Db, Map<string, Set<Listener>>>();

/**
 * Adds `listener` to the watch `name` of this connection. The first watcher of a name
 * registers the SQL function `stepwise_<name>_written` and runs `triggers(fn)` (CREATE
 * TEMP TRIGGER IF NOT EXISTS statements that call `fn(value)`); later ones only listen.
 */
export function watchWrites(db: Db, name: string, triggers: (fn: string) => string, listener: Listener): void {
  let watches = watchesOf.get(db);
  if (!watches) watchesOf.set(db, (watches = new Map()));
  let listeners = watches.get(name);
  if (!listeners) {
    const registered = new Set<Listener>();
    listeners = registered;
    watches.set(name, registered);
    const fn = `stepwise_${name}_written`;
    db.function(fn, { deterministic: false, directOnly: true }, (value: unknown) => {
      for (const notify of registered) notify(value);
      return null;
    });
    db.exec(triggers(fn));
  }
  listeners.add(listener);
}

/** A check for commits by other connections since it last ran (PRAGMA data_version). */
export function commitsElsewhere(db: Db): () => boolean {
  const version = db.prepare<[], number>('PRAGMA data_version').pluck();
  let seen = version.get();
  return () => {
    const now = version.get();
    const changed = now !== seen;
    seen = now;
    return changed;
  };
}
