import { describe, expect, it } from 'vitest';

import { formToSchedule, nextRuns, scheduleInWords, scheduleToForm, zonedToIso } from '../utils/schedule';

const cron = (expr: string, timezone = 'Europe/Berlin') =>
  ({ kind: 'cron', cron: expr, timezone, missed: 'skip' }) as const;

describe('schedule in words', () => {
  it('reads the schedules people make', () => {
    expect(scheduleInWords(cron('0 9 * * 1'))).toBe('Every Monday at 09:00, Europe/Berlin');
    expect(scheduleInWords(cron('30 17 * * 1,4'))).toBe('Every Monday and Thursday at 17:30, Europe/Berlin');
    expect(scheduleInWords(cron('0 8 * * 1-5'))).toBe('Every weekday at 08:00, Europe/Berlin');
    expect(scheduleInWords(cron('0 10 * * 0,6'))).toBe('Every Saturday and Sunday at 10:00, Europe/Berlin');
    expect(scheduleInWords(cron('15 7 * * *'))).toBe('Every day at 07:15, Europe/Berlin');
    expect(scheduleInWords(cron('0 9 1 * *'))).toBe('On day 1 of every month at 09:00, Europe/Berlin');
    expect(scheduleInWords(cron('*/15 9-17 * * 1-5'))).toBe(
      'On the schedule “*/15 9-17 * * 1-5”, Europe/Berlin',
    );
    expect(scheduleInWords({ kind: 'interval', every_minutes: 360, timezone: 'UTC' })).toBe(
      'Every 6 hours, UTC',
    );
    expect(scheduleInWords({ kind: 'interval', every_minutes: 2880, timezone: 'UTC' })).toBe(
      'Every 2 days, UTC',
    );
    expect(
      scheduleInWords({ kind: 'once', run_at: '2026-12-01T08:00:00.000Z', timezone: 'Europe/Berlin' }),
    ).toBe('Once, on Tue, 1 Dec 2026, 09:00, Europe/Berlin');
    expect(scheduleInWords(null)).toBe('Not scheduled');
  });

  it('round-trips the form choices and the stored schedule', () => {
    const form = scheduleToForm({
      kind: 'cron',
      cron: '0 9 * * 1,4',
      every_minutes: null,
      run_at: null,
      timezone: 'Asia/Tokyo',
      start_at: null,
      end_at: null,
      missed: 'run_once',
      next_run_at: null,
      last_fired_at: null,
    });
    expect(form).toMatchObject({ preset: 'weekly', days: [1, 4], time: '09:00', timezone: 'Asia/Tokyo' });
    expect(formToSchedule(form)).toEqual({
      kind: 'cron',
      cron: '0 9 * * 1,4',
      timezone: 'Asia/Tokyo',
      missed: 'run_once',
    });
    expect(formToSchedule({ ...form, preset: 'once', run_at: '2026-12-01T09:00' })).toEqual({
      kind: 'once',
      run_at: '2026-12-01T00:00:00.000Z',
      timezone: 'Asia/Tokyo',
      missed: 'run_once',
    });
  });
});

describe('next runs', () => {
  it('follow the schedule’s clock across a DST change', () => {
    // Berlin leaves summer time on Sunday 25 Oct 2026: 09:00 is 07:00 UTC before, 08:00 UTC after.
    const result = nextRuns(cron('0 9 * * *'), 3, new Date('2026-10-24T12:00:00Z'));
    expect(result).toEqual({
      runs: ['2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z', '2026-10-27T08:00:00.000Z'],
    });
    const before = nextRuns(cron('0 9 * * *'), 1, new Date('2026-10-23T12:00:00Z'));
    expect(before).toEqual({ runs: ['2026-10-24T07:00:00.000Z'] });
  });

  it('start within the window from start_at to end_at', () => {
    const windowed = {
      kind: 'cron',
      cron: '0 9 * * *',
      timezone: 'UTC',
      start_at: '2026-12-10T00:00:00.000Z',
      end_at: '2026-12-11T12:00:00.000Z',
    } as const;
    expect(nextRuns(windowed, 5, new Date('2026-12-01T00:00:00Z'))).toEqual({
      runs: ['2026-12-10T09:00:00.000Z', '2026-12-11T09:00:00.000Z'],
    });
    const every = {
      kind: 'interval',
      every_minutes: 720,
      timezone: 'UTC',
      start_at: '2026-12-01T06:00:00.000Z',
    } as const;
    expect(nextRuns(every, 2, new Date('2026-12-02T07:00:00Z'))).toEqual({
      runs: ['2026-12-02T18:00:00.000Z', '2026-12-03T06:00:00.000Z'],
    });
  });

  it('names what is wrong instead of listing runs', () => {
    expect(nextRuns(cron('not a cron'))).toEqual({ error: 'This cron expression is not valid.' });
    expect(nextRuns(cron('0 9 * * 1', 'Mars/Olympus'))).toEqual({
      error: 'Enter a valid time zone, such as Europe/Berlin.',
    });
    expect(nextRuns({ kind: 'once', run_at: '2020-01-01T00:00:00Z', timezone: 'UTC' })).toEqual({ runs: [] });
  });

  it('reads a wall-clock time in its zone, DST included', () => {
    expect(zonedToIso('2026-07-01T09:00', 'Europe/Berlin')).toBe('2026-07-01T07:00:00.000Z');
    expect(zonedToIso('2026-01-01T09:00', 'Europe/Berlin')).toBe('2026-01-01T08:00:00.000Z');
    expect(zonedToIso('nonsense', 'UTC')).toBeNull();
  });
});
