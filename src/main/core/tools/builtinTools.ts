// Tools that ship with the engine itself, so the loop is exercised for real before any
// feature module registers its own.
import { z } from 'zod';
import { defineTool } from './toolTypes';

export function currentTimeTool(now: () => number = Date.now) {
  return defineTool({
    name: 'get_current_time',
    safeWhilePlanning: true,
    description:
      "Returns the current date and time. Use it whenever the answer depends on today's date or the time of day.",
    parameters: z.object({
      timeZone: z
        .string()
        .optional()
        .describe('IANA time zone such as "Europe/Berlin"; defaults to the user\'s local time zone'),
    }),
    handler: ({ timeZone }) => {
      const at = new Date(now());
      let local: string;
      try {
        local = at.toLocaleString('en-US', { timeZone, dateStyle: 'full', timeStyle: 'long' });
      } catch {
        throw new Error(`unknown time zone ${JSON.stringify(timeZone)}; use an IANA name such as "Europe/Berlin"`);
      }
      return JSON.stringify({ iso: at.toISOString(), local, timeZone: timeZone ?? localZone() });
    },
  });
}

function localZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
