// Each schedule kind of a routine: its checks (each field says what is wrong), its words,
// and its next run in a time zone, across daylight-saving changes.
import { describe, expect, it } from 'vitest';
import type { RoutineSchedule } from '../../src/shared/routinesContract';
import {
  dueBetween,
  nextRunAfter,
  normalized,
  scheduleErrors,
  scheduleText,
} from '../../src/main/core/routines/schedule';

const base: RoutineSchedule = { kind: 'minutes', minutes: null, time: null, day: null, cron: null };
const s = (patch: Partial<RoutineSchedule>): RoutineSchedule => ({ ...base, ...patch });
const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const utc = (text: string) => Date.parse(text);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('schedule checks', () => {
  it('refuses more often than once a minute, and says which field is wrong', () => {
    expect(scheduleErrors(s({ kind: 'minutes', minutes: 0 }))).toEqual([
      { field: 'minutes', message: 'Routines run at most once a minute: enter 1 or more.' },
    ]);
    expect(scheduleErrors(s({ kind: 'minutes', minutes: 1.5 }))[0].field).toBe('minutes');
    expect(scheduleErrors(s({ kind: 'minutes', minutes: null }))[0].field).toBe('minutes');
    expect(scheduleErrors(s({ kind: 'minutes', minutes: 1 }))).toEqual([]);
    const seconds = scheduleErrors(s({ kind: 'cron', cron: '*/10 * * * * *' }));
    expect(seconds).toHaveLength(1);
    expect(seconds[0]).toMatchObject({ field: 'cron' });
    expect(seconds[0].message).toContain('at most once a minute');
  });

  it('says what is wrong with a time or a cron expression', () => {
    expect(scheduleErrors(s({ kind: 'daily', time: '25:00' }))).toEqual([
      { field: 'time', message: '“25:00” is not a time of day: hours go to 23 and minutes to 59.' },
    ]);
    expect(scheduleErrors(s({ kind: 'weekdays', time: 'noon' }))[0]).toMatchObject({ field: 'time' });
    expect(scheduleErrors(s({ kind: 'weekly', time: '09:00', day: null }))).toEqual([
      { field: 'day', message: 'Choose a day of the week.' },
    ]);
    expect(scheduleErrors(s({ kind: 'cron', cron: '61 * * * *' }))[0].message).toMatch(
      /^This cron expression is not valid: /,
    );
    expect(scheduleErrors(s({ kind: 'cron', cron: '0 9 * *' }))[0].message).toContain('this one has 4');
    expect(scheduleErrors(s({ kind: 'cron', cron: '0 9 * * 1-5' }))).toEqual([]);
    expect(scheduleErrors(s({ kind: 'hourly' }))).toEqual([]);
  });

  it('keeps only the fields of its kind and says it in words', () => {
    const weekly = normalized(s({ kind: 'weekly', time: '7:05', day: 1, minutes: 4, cron: 'x' }));
    expect(weekly).toEqual({ kind: 'weekly', minutes: null, time: '07:05', day: 1, cron: null });
    expect(scheduleText(weekly)).toBe('Every Monday at 07:05');
    expect(scheduleText(s({ kind: 'minutes', minutes: 1 }))).toBe('Every minute');
    expect(scheduleText(s({ kind: 'minutes', minutes: 15 }))).toBe('Every 15 minutes');
    expect(scheduleText(s({ kind: 'hourly' }))).toBe('Every hour');
    expect(scheduleText(s({ kind: 'daily', time: '09:00' }))).toBe('Every day at 09:00');
    expect(scheduleText(s({ kind: 'weekdays', time: '09:00' }))).toBe('Every weekday at 09:00');
    expect(scheduleText(s({ kind: 'cron', cron: '0 9 * * *' }))).toBe('Cron: 0 9 * * *');
  });
});

describe('next run', () => {
  const anchor = utc('2026-03-02T10:00:30Z');

  it('Every N minutes counts from when the routine was saved', () => {
    const every7 = s({ kind: 'minutes', minutes: 7 });
    expect(iso(nextRunAfter(every7, anchor, { anchor }))).toBe('2026-03-02T10:07:30.000Z');
    expect(iso(nextRunAfter(every7, anchor + 7 * 60_000, { anchor }))).toBe('2026-03-02T10:14:30.000Z');
    expect(iso(nextRunAfter(every7, anchor + 60 * 60_000, { anchor }))).toBe('2026-03-02T11:03:30.000Z');
  });

  it('Every hour, Every day, Every weekday and Every week in the local time zone', () => {
    const clock = { timeZone: BERLIN, anchor };
    // 2026-03-02 is a Monday; Berlin is UTC+1 in winter.
    expect(iso(nextRunAfter(s({ kind: 'hourly' }), anchor, clock))).toBe('2026-03-02T11:00:00.000Z');
    expect(iso(nextRunAfter(s({ kind: 'daily', time: '09:00' }), anchor, clock))).toBe('2026-03-03T08:00:00.000Z');
    const friday = utc('2026-03-06T09:00:00Z');
    expect(iso(nextRunAfter(s({ kind: 'weekdays', time: '09:00' }), friday, clock))).toBe('2026-03-09T08:00:00.000Z');
    expect(iso(nextRunAfter(s({ kind: 'weekly', time: '18:30', day: 3 }), anchor, clock))).toBe(
      '2026-03-04T17:30:00.000Z',
    );
    expect(iso(nextRunAfter(s({ kind: 'cron', cron: '15 */6 * * *' }), anchor, clock))).toBe(
      '2026-03-02T11:15:00.000Z',
    );
  });

  it('keeps the local time across daylight-saving changes', () => {
    const daily = s({ kind: 'daily', time: '09:00' });
    // Berlin springs forward on 2026-03-29: 09:00 is 08:00 UTC before, 07:00 UTC after.
    const clock = { timeZone: BERLIN, anchor };
    const before = nextRunAfter(daily, utc('2026-03-28T09:00:00Z'), clock)!;
    expect(iso(before)).toBe('2026-03-29T07:00:00.000Z');
    expect(before - utc('2026-03-28T08:00:00Z')).toBe(23 * 3_600_000);
    // New York falls back on 2026-11-01: 09:00 is 13:00 UTC before, 14:00 UTC after.
    const ny = { timeZone: NEW_YORK, anchor };
    expect(iso(nextRunAfter(daily, utc('2026-10-31T13:00:00Z'), ny))).toBe('2026-11-01T14:00:00.000Z');
    // A time that does not exist on the day of the change (02:30 in New York, 2026-03-08) still runs that day.
    const night = nextRunAfter(s({ kind: 'daily', time: '02:30' }), utc('2026-03-08T05:00:00Z'), ny)!;
    expect(new Date(night).toISOString().slice(0, 10)).toBe('2026-03-08');
    expect(nextRunAfter(s({ kind: 'daily', time: '02:30' }), night, ny)).toBe(utc('2026-03-09T06:30:00Z'));
  });

  it('counts the runs between two times without walking each one', () => {
    const every = s({ kind: 'minutes', minutes: 1 });
    const week = dueBetween(every, anchor, anchor + 7 * 24 * 3_600_000, { anchor });
    expect(week.count).toBe(7 * 24 * 60);
    expect(week.first).toBe(anchor + 60_000);
    const days = dueBetween(s({ kind: 'daily', time: '09:00' }), anchor, utc('2026-03-05T12:00:00Z'), {
      timeZone: BERLIN,
      anchor,
    });
    expect({ count: days.count, first: iso(days.first), last: iso(days.last) }).toEqual({
      count: 3,
      first: '2026-03-03T08:00:00.000Z',
      last: '2026-03-05T08:00:00.000Z',
    });
  });
});
