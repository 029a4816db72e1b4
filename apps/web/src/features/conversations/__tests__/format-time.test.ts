import { describe, expect, it } from 'vitest';

import { initials, initiatorName, truncateGroupName } from '../utils/display';
import { formatDayDivider, formatLastMessageTime } from '../utils/format-time';

const NOW = new Date(2026, 5, 15, 14, 30);

describe('last message time', () => {
  it('shows the time for today', () => {
    expect(formatLastMessageTime(new Date(2026, 5, 15, 9, 5).toISOString(), NOW)).toBe('9:05 AM');
    expect(formatLastMessageTime(new Date(2026, 5, 15, 0, 0).toISOString(), NOW)).toBe('12:00 AM');
  });

  it('says "Yesterday" for the day before', () => {
    expect(formatLastMessageTime(new Date(2026, 5, 14, 23, 59).toISOString(), NOW)).toBe('Yesterday');
    expect(formatLastMessageTime(new Date(2026, 5, 14, 0, 1).toISOString(), NOW)).toBe('Yesterday');
  });

  it('shows month and day earlier this year, and month, day and year before that', () => {
    expect(formatLastMessageTime(new Date(2026, 5, 13, 12, 0).toISOString(), NOW)).toBe('Jun 13');
    expect(formatLastMessageTime(new Date(2026, 0, 1, 8, 0).toISOString(), NOW)).toBe('Jan 1');
    expect(formatLastMessageTime(new Date(2025, 11, 31, 8, 0).toISOString(), NOW)).toBe('Dec 31, 2025');
  });

  it('shows nothing without a time', () => {
    expect(formatLastMessageTime(null, NOW)).toBe('');
    expect(formatLastMessageTime('garbage', NOW)).toBe('');
  });

  it('names day dividers', () => {
    expect(formatDayDivider(new Date(2026, 5, 15, 8), NOW)).toBe('Today');
    expect(formatDayDivider(new Date(2026, 5, 14, 8), NOW)).toBe('Yesterday');
    expect(formatDayDivider(new Date(2026, 2, 3, 8), NOW)).toBe('Tuesday, March 3');
    expect(formatDayDivider(new Date(2024, 1, 29, 8), NOW)).toBe('February 29, 2024');
  });
});

describe('display rules', () => {
  it('cuts group names at 25 characters plus an ellipsis', () => {
    expect(truncateGroupName('Support')).toBe('Support');
    expect(truncateGroupName('a'.repeat(25))).toBe('a'.repeat(25));
    expect(truncateGroupName(`${'b'.repeat(25)}cdef`)).toBe(`${'b'.repeat(25)}...`);
  });

  it('names a conversation by its initiator, or "Anonymous Customer"', () => {
    expect(initiatorName({ initiator: { id: 1, name: 'Ada', email: null } })).toBe('Ada');
    expect(initiatorName({ initiator: { id: 1, name: null, email: 'x@example.com' } })).toBe(
      'Anonymous Customer',
    );
    expect(initiatorName({ initiator: null })).toBe('Anonymous Customer');
  });

  it('makes avatar initials', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('grace brewster murray hopper')).toBe('GH');
    expect(initials('Cher')).toBe('C');
    expect(initials('  ')).toBe('?');
    expect(initials(null)).toBe('?');
  });
});
