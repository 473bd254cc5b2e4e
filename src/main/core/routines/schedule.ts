// A routine's schedule: checked field by field, said in words, and its run times computed
// with croner in the local time zone (daylight-saving changes included). Pure: every
// function takes the time it works from.
import { Cron } from 'croner';
import type { RoutineFieldError, RoutineSchedule } from '../../../shared/routinesContract';

export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MINUTE = 60_000;
/** Five fields: a schedule never runs more often than once a minute. */
const CRON_MODE = '5-part' as const;

export interface ScheduleClock {
  /** An IANA zone (tests); absent: the machine's local zone. */
  timeZone?: string;
  /** "Every N minutes" counts from here (the routine's creation or last edit). */
  anchor: number;
}

function parseTime(time: string | null): { hour: number; minute: number } | string {
  if (!time || !time.trim()) return 'Enter a time, such as 09:00.';
  const match = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!match) return `“${time}” is not a time. Use hours and minutes, such as 09:00 or 17:30.`;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour > 23 || minute > 59) return `“${time}” is not a time of day: hours go to 23 and minutes to 59.`;
  return { hour, minute };
}

function cronError(expression: string | null): string | null {
  const text = expression?.trim() ?? '';
  if (!text) return 'Enter a cron expression, such as 0 9 * * 1-5 (09:00 on weekdays).';
  const fields = text.split(/\s+/).length;
  if (fields > 5) {
    return 'Routines run at most once a minute: use five fields (minute hour day-of-month month day-of-week), without seconds.';
  }
  if (fields < 5)
    return `A cron expression has five fields (minute hour day-of-month month day-of-week); this one has ${fields}.`;
  try {
    const cron = new Cron(text, { mode: CRON_MODE, paused: true });
    if (!cron.nextRun(new Date())) return 'This cron expression never runs.';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `This cron expression is not valid: ${reason.replace(/^CronPattern: /, '')}`;
  }
  return null;
}

/** Every problem of the schedule, one per field; empty when it can be saved. */
export function scheduleErrors(schedule: RoutineSchedule): RoutineFieldError[] {
  const errors: RoutineFieldError[] = [];
  const needsTime = schedule.kind === 'daily' || schedule.kind === 'weekdays' || schedule.kind === 'weekly';
  if (schedule.kind === 'minutes') {
    const n = schedule.minutes;
    if (n === null || !Number.isFinite(n))
      errors.push({ field: 'minutes', message: 'Enter how many minutes apart the runs are.' });
    else if (!Number.isInteger(n)) errors.push({ field: 'minutes', message: 'Minutes must be a whole number.' });
    else if (n < 1) errors.push({ field: 'minutes', message: 'Routines run at most once a minute: enter 1 or more.' });
    else if (n > 7 * 24 * 60)
      errors.push({ field: 'minutes', message: 'At most 10080 minutes (a week); use Every week instead.' });
  }
  if (needsTime) {
    const time = parseTime(schedule.time);
    if (typeof time === 'string') errors.push({ field: 'time', message: time });
  }
  if (schedule.kind === 'weekly' && (schedule.day === null || schedule.day < 0 || schedule.day > 6)) {
    errors.push({ field: 'day', message: 'Choose a day of the week.' });
  }
  if (schedule.kind === 'cron') {
    const problem = cronError(schedule.cron);
    if (problem) errors.push({ field: 'cron', message: problem });
  }
  return errors;
}

/** Only the fields of its kind, trimmed: what is stored. Call after `scheduleErrors` found none. */
export function normalized(schedule: RoutineSchedule): RoutineSchedule {
  const time = schedule.time?.trim() ?? null;
  const padded = time ? time.padStart(5, '0') : null;
  return {
    kind: schedule.kind,
    minutes: schedule.kind === 'minutes' ? schedule.minutes : null,
    time: schedule.kind === 'daily' || schedule.kind === 'weekdays' || schedule.kind === 'weekly' ? padded : null,
    day: schedule.kind === 'weekly' ? schedule.day : null,
    cron: schedule.kind === 'cron' ? (schedule.cron?.trim().replace(/\s+/g, ' ') ?? null) : null,
  };
}

/** The five-field pattern of every kind but "Every N minutes" (which counts from its anchor). */
export function cronPattern(schedule: RoutineSchedule): string | null {
  const at = (() => {
    const time = parseTime(schedule.time);
    return typeof time === 'string' ? { hour: 0, minute: 0 } : time;
  })();
  switch (schedule.kind) {
    case 'minutes':
      return null;
    case 'hourly':
      return '0 * * * *';
    case 'daily':
      return `${at.minute} ${at.hour} * * *`;
    case 'weekdays':
      return `${at.minute} ${at.hour} * * 1-5`;
    case 'weekly':
      return `${at.minute} ${at.hour} * * ${schedule.day ?? 0}`;
    case 'cron':
      return schedule.cron ?? '';
  }
}

export function scheduleText(schedule: RoutineSchedule): string {
  switch (schedule.kind) {
    case 'minutes':
      return schedule.minutes === 1 ? 'Every minute' : `Every ${schedule.minutes} minutes`;
    case 'hourly':
      return 'Every hour';
    case 'daily':
      return `Every day at ${schedule.time}`;
    case 'weekdays':
      return `Every weekday at ${schedule.time}`;
    case 'weekly':
      return `Every ${DAY_NAMES[schedule.day ?? 0]} at ${schedule.time}`;
    case 'cron':
      return `Cron: ${schedule.cron}`;
  }
}

/** The first run time strictly after `after` (ms), or null if the schedule never runs again. */
export function nextRunAfter(schedule: RoutineSchedule, after: number, clock: ScheduleClock): number | null {
  if (schedule.kind === 'minutes') {
    const step = (schedule.minutes ?? 1) * MINUTE;
    if (after < clock.anchor) return clock.anchor + step;
    return clock.anchor + (Math.floor((after - clock.anchor) / step) + 1) * step;
  }
  const cron = new Cron(cronPattern(schedule) ?? '', { mode: CRON_MODE, paused: true, timezone: clock.timeZone });
  return cron.nextRun(new Date(after))?.getTime() ?? null;
}

/**
 * Run times in (from, to], at most `cap` of them, and how many there were in all (counted
 * up to `cap`; a long sleep of an every-minute routine is not walked minute by minute).
 */
export function dueBetween(
  schedule: RoutineSchedule,
  from: number,
  to: number,
  clock: ScheduleClock,
  cap = 1000,
): { first: number | null; last: number | null; count: number } {
  let first: number | null = null;
  let last: number | null = null;
  let count = 0;
  if (schedule.kind === 'minutes') {
    const step = (schedule.minutes ?? 1) * MINUTE;
    const start = nextRunAfter(schedule, from, clock);
    if (start === null || start > to) return { first, last, count };
    count = Math.floor((to - start) / step) + 1;
    return { first: start, last: start + (count - 1) * step, count };
  }
  let at = from;
  while (count < cap) {
    const next = nextRunAfter(schedule, at, clock);
    if (next === null || next > to) break;
    first ??= next;
    last = next;
    count++;
    at = next;
  }
  return { first, last, count };
}
