// The endpoint's sessions, so that no client is locked out: a session unheard for IDLE_MS
// with nothing in flight and no open stream is ended, and a new client at the limit takes
// the place of the longest-idle session instead of being refused.
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ShareServer } from './shareTools';
import type { slidingSecond } from './shareLimits';

export const MAX_CLIENTS = 16;
/** A session unheard this long, with no request in flight and no open stream, is ended. */
export const IDLE_MS = 60_000;

export interface Session {
  transport: StreamableHTTPServerTransport;
  share: ShareServer;
  calls: ReturnType<typeof slidingSecond>;
  lastSeen: number;
  /** Requests being answered and streams open (a GET for notifications). */
  busy: number;
  /** The share server's work() already charged to the token. */
  charged: number;
}

export function createSessionTable(options: { now: () => number; idleMs: number; onChange: () => void }) {
  const sessions = new Map<string, Session>();

  function end(id: string): void {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    void session.share.server.close().catch(() => {});
    options.onChange();
  }

  return {
    get: (id: string) => sessions.get(id),
    size: () => sessions.size,
    values: () => sessions.values(),
    add(id: string, session: Session): void {
      sessions.set(id, session);
      options.onChange();
    },
    /** Forgets a session its transport closed (the client's DELETE). */
    forget(id: string): void {
      if (sessions.delete(id)) options.onChange();
    },
    /** Marks a session in use until `done` (a request answered, a stream closed). */
    use(session: Session): () => void {
      session.busy++;
      session.lastSeen = options.now();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        session.busy--;
        session.lastSeen = options.now();
      };
    },
    /** Ends the sessions idle for longer than idleMs. */
    reapIdle(): number {
      const limit = options.now() - options.idleMs;
      const idle = [...sessions].filter(([, s]) => s.busy === 0 && s.lastSeen < limit).map(([id]) => id);
      for (const id of idle) end(id);
      return idle.length;
    },
    /**
     * Makes room for one more: ends the longest-idle session, preferring one with nothing
     * in flight and no stream (an open stream only waits for notifications).
     */
    makeRoom(reserved: number): void {
      if (sessions.size + reserved < MAX_CLIENTS) return;
      const byIdle = [...sessions].sort(
        ([, a], [, b]) => Number(a.busy > 0) - Number(b.busy > 0) || a.lastSeen - b.lastSeen,
      );
      for (const [id] of byIdle.slice(0, sessions.size + reserved - MAX_CLIENTS + 1)) end(id);
    },
    /** Ends every session at once (a new token, or stopping). */
    endAll(): Promise<void> {
      const closing = [...sessions.values()].map((s) => s.share.server.close().catch(() => {}));
      sessions.clear();
      options.onChange();
      return Promise.all(closing).then(() => {});
    },
  };
}

export type SessionTable = ReturnType<typeof createSessionTable>;
