// A server's log messages (`notifications/message`), the last 500 kept per server for its
// card's Log. A flood costs a bounded buffer: lines are cut to 2,000 characters, the oldest
// are overwritten in place, and nothing is pushed to the renderer per line.
import type { McpLog } from '../../../shared/mcp';

export const LOG_LINES = 500;
export const LOG_LINE_CHARS = 2000;

export function createLogBuffer(now: () => number) {
  const ring: McpLog['entries'] = [];
  let next = 0;
  let dropped = 0;
  return {
    add(entry: { level: string; logger: string | null; text: string }) {
      const line = {
        at: now(),
        level: entry.level,
        logger: entry.logger,
        text: entry.text.length > LOG_LINE_CHARS ? `${entry.text.slice(0, LOG_LINE_CHARS)}…` : entry.text,
      };
      if (ring.length < LOG_LINES) ring.push(line);
      else {
        ring[next] = line;
        dropped++;
      }
      next = (next + 1) % LOG_LINES;
    },
    /** Oldest first, and how many older lines were let go. */
    view(): McpLog {
      const entries = ring.length < LOG_LINES ? [...ring] : [...ring.slice(next), ...ring.slice(0, next)];
      return { entries, dropped };
    },
    clear() {
      ring.length = 0;
      next = 0;
      dropped = 0;
    },
  };
}
