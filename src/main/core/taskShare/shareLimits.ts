// What one client may cost the app. Counted per session and per token across all of its
// sessions (a client that opens a session per call gains nothing), with new sessions
// limited too. Calls are counted (over the limit: 429), and so is the main-thread time
// their answers took (over its budget, calls wait their turn), so no mix of cheap and dear
// calls can take more than a bounded share of the app (docs/tools.md, "Guards and limits").

/** Calls a second per session, and per token over all of its sessions. */
export const CALLS_PER_SECOND = 50;
/** Milliseconds of the app's time a second that one token's calls may take. */
export const BUSY_MS_PER_SECOND = 250;
/** New sessions: a burst of this many, then SESSIONS_PER_SECOND a second. */
export const SESSION_BURST = 20;
export const SESSIONS_PER_SECOND = 10;

/** Events of the last second (start times, each with a weight). */
export function slidingSecond() {
  const at: number[] = [];
  const weight: number[] = [];
  let sum = 0;
  function expire(now: number) {
    while (at.length && at[0] <= now - 1000) {
      at.shift();
      sum -= weight.shift()!;
    }
  }
  return {
    total(now: number): number {
      expire(now);
      return sum;
    },
    /** Milliseconds until more than `amount` has left the window. */
    expiresIn(now: number, amount: number): number {
      expire(now);
      let gone = 0;
      for (let i = 0; i < at.length; i++) {
        gone += weight[i];
        if (gone > amount) return Math.max(1, at[i] + 1000 - now);
      }
      return 1000;
    },
    add(now: number, amount: number): void {
      at.push(now);
      weight.push(amount);
      sum += amount;
    },
  };
}

export type Refusal = { ok: false; message: string };

export function createShareLimits(now: () => number = () => performance.now()) {
  const tokenCalls = slidingSecond();
  const tokenBusy = slidingSecond();
  let bucket = SESSION_BURST;
  let filledAt = now();

  return {
    /** A per-session counter of calls. */
    sessionCounter: () => slidingSecond(),
    /** Counts `count` calls against the session and the token, or says why not. */
    admitCalls(session: ReturnType<typeof slidingSecond>, count: number): { ok: true } | Refusal {
      const at = now();
      if (session.total(at) + count > CALLS_PER_SECOND || tokenCalls.total(at) + count > CALLS_PER_SECOND) {
        return {
          ok: false,
          message: `Rate limit: at most ${CALLS_PER_SECOND} calls a second per client (all sessions with this token together). Wait a second and try again.`,
        };
      }
      session.add(at, count);
      tokenCalls.add(at, count);
      return { ok: true };
    },
    /**
     * How long an admitted request waits before it runs, so that the token's answers take
     * at most BUSY_MS_PER_SECOND of the app's time a second: dear calls are slowed down,
     * never refused, and the app's other work runs in between.
     */
    delay(): number {
      const at = now();
      const over = tokenBusy.total(at) - BUSY_MS_PER_SECOND;
      return over < 0 ? 0 : tokenBusy.expiresIn(at, over);
    },
    /** Charges the time an admitted request took the app. */
    charge(ms: number): void {
      tokenBusy.add(now(), ms);
    },
    /** Takes one new session from the bucket, or says why not. */
    admitSession(): { ok: true } | Refusal {
      const at = now();
      bucket = Math.min(SESSION_BURST, bucket + ((at - filledAt) / 1000) * SESSIONS_PER_SECOND);
      filledAt = at;
      if (bucket < 1) {
        return {
          ok: false,
          message: `Rate limit: at most ${SESSIONS_PER_SECOND} new sessions a second. Wait a second and initialize again.`,
        };
      }
      bucket -= 1;
      return { ok: true };
    },
  };
}

export type ShareLimits = ReturnType<typeof createShareLimits>;
