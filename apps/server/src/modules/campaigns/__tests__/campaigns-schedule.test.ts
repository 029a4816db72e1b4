// When each recipient is due: their zone (stored, else their phone's country, else the business's),
// a local time on their clock, a time read in the business's zone, and quiet hours for texts.
import { describe, expect, it } from 'vitest';
import { checkSchedule, dueFor, outOfQuietHours, parseAt, recipientZone } from '../campaigns.schedule';

describe('a recipient’s zone', () => {
  it('is their stored zone, else their phone’s country, else the business’s', () => {
    expect(recipientZone({ fields: { timezone: 'Asia/Kolkata' }, phone: '+81312345678' }, 'UTC')).toBe(
      'Asia/Kolkata',
    );
    expect(recipientZone({ fields: { time_zone: 'Not/AZone' }, phone: '+81312345678' }, 'UTC')).toBe(
      'Asia/Tokyo',
    );
    expect(recipientZone({ fields: {}, phone: '+4930123456' }, 'UTC')).toBe('Europe/Berlin');
    expect(recipientZone({ fields: {}, phone: null }, 'America/Chicago')).toBe('America/Chicago');
  });
});

describe('due times', () => {
  const start = new Date('2026-11-30T12:00:00Z');
  it('reads a wall time without an offset in the business’s zone, and one with an offset as written', () => {
    expect(parseAt('2026-12-01T09:30', 'Europe/Berlin').toISOString()).toBe('2026-12-01T08:30:00.000Z');
    expect(parseAt('2026-12-01T09:30:00Z', 'Europe/Berlin').toISOString()).toBe('2026-12-01T09:30:00.000Z');
  });
  it('puts a local time on each recipient’s clock on the chosen day, across DST zones', () => {
    const schedule = { mode: 'local' as const, at: '2026-12-01', local_time: '09:00' };
    expect(dueFor(schedule, 'America/New_York', 'UTC', start).toISOString()).toBe('2026-12-01T14:00:00.000Z');
    expect(dueFor(schedule, 'Australia/Sydney', 'UTC', start).toISOString()).toBe('2026-11-30T22:00:00.000Z');
    // A local time already past there: at once.
    expect(
      dueFor(schedule, 'Pacific/Kiritimati', 'UTC', new Date('2026-12-01T00:00:00Z')).toISOString(),
    ).toBe('2026-12-01T00:00:00.000Z');
  });
  it('refuses a schedule missing what its mode needs, or in the past', () => {
    expect(() => checkSchedule({ mode: 'at' }, 'UTC', start)).toThrow();
    expect(() => checkSchedule({ mode: 'local' }, 'UTC', start)).toThrow();
    expect(() => checkSchedule({ mode: 'at', at: '2026-11-01T10:00' }, 'UTC', start)).toThrow();
    expect(() => checkSchedule({ mode: 'at', at: '2026-12-01T10:00' }, 'UTC', start)).not.toThrow();
  });
});

describe('quiet hours (21:00–08:00 on the recipient’s clock) for texts', () => {
  it('moves a due time inside them to their end, today or tomorrow', () => {
    // 22:30 in Berlin → 08:00 the next morning there.
    expect(outOfQuietHours(new Date('2026-12-01T21:30:00Z'), 'Europe/Berlin').toISOString()).toBe(
      '2026-12-02T07:00:00.000Z',
    );
    // 06:00 in Berlin → 08:00 the same morning.
    expect(outOfQuietHours(new Date('2026-12-02T05:00:00Z'), 'Europe/Berlin').toISOString()).toBe(
      '2026-12-02T07:00:00.000Z',
    );
    // 12:00: left as it is.
    expect(outOfQuietHours(new Date('2026-12-02T11:00:00Z'), 'Europe/Berlin').toISOString()).toBe(
      '2026-12-02T11:00:00.000Z',
    );
  });
});
