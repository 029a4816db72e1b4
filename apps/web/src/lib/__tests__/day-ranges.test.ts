import { describe, expect, it } from 'vitest';

import { dayRange, lastDays, todayIn } from '../day-ranges';

describe('day ranges in the business time zone', () => {
  it('counts whole days in the zone, not in UTC or the browser’s zone', () => {
    expect(dayRange('2026-11-01', '2026-11-10', 'America/Los_Angeles')).toEqual({
      created_at__gte: '2026-11-01T07:00:00.000Z',
      created_at__lte: '2026-11-11T07:59:59.999Z',
    });
    expect(dayRange('2026-11-01', '2026-11-10', 'UTC')).toEqual({
      created_at__gte: '2026-11-01T00:00:00.000Z',
      created_at__lte: '2026-11-10T23:59:59.999Z',
    });
  });

  it('keeps a day whole when the clocks change (Europe/Berlin, 29 March 2026 has 23 hours)', () => {
    const range = dayRange('2026-03-29', '2026-03-29', 'Europe/Berlin')!;
    expect(range.created_at__gte).toBe('2026-03-28T23:00:00.000Z');
    expect(range.created_at__lte).toBe('2026-03-29T21:59:59.999Z');
  });

  it('ends the last days at the end of today there', () => {
    // 03:00 UTC on 28 November is still 27 November in New York.
    const now = new Date('2026-11-28T03:00:00.000Z');
    expect(todayIn('America/New_York', now)).toBe('2026-11-27');
    expect(lastDays(7, 'America/New_York', now)).toEqual({
      created_at__gte: '2026-11-21T05:00:00.000Z',
      created_at__lte: '2026-11-28T04:59:59.999Z',
    });
  });

  it('refuses what makes no range', () => {
    expect(dayRange('2026-11-10', '2026-11-01', 'UTC')).toBeNull();
    expect(dayRange('2026-02-30', '2026-03-01', 'UTC')).toBeNull();
    expect(dayRange('', '2026-03-01', 'UTC')).toBeNull();
  });
});
