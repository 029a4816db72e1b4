import { describe, expect, it } from 'vitest';

import {
  formatFilterDate,
  hasActiveFilters,
  NO_FILTERS,
  parseFilterDate,
  toQueryParams,
} from '../utils/filters';

describe('filter panel mapping', () => {
  it('maps every "All" to no parameter at all', () => {
    expect(toQueryParams(NO_FILTERS)).toEqual({});
    expect(hasActiveFilters(NO_FILTERS)).toBe(false);
  });

  it('maps each choice to its query parameter', () => {
    expect(toQueryParams({ ...NO_FILTERS, status: 'resolved' })).toEqual({ status: 'resolved' });
    expect(toQueryParams({ ...NO_FILTERS, channel: 'whatsapp' })).toEqual({ channel__in: 'whatsapp' });
    expect(toQueryParams({ ...NO_FILTERS, channel: 'titan_message' })).toEqual({
      channel__in: 'titan_message',
    });
    expect(toQueryParams({ ...NO_FILTERS, readStatus: 'read' })).toEqual({ is_read: 'true' });
    expect(toQueryParams({ ...NO_FILTERS, readStatus: 'unread' })).toEqual({ is_read: 'false' });
    expect(toQueryParams({ ...NO_FILTERS, businessResponse: 'replied' })).toEqual({
      business_replied: 'true',
    });
    expect(toQueryParams({ ...NO_FILTERS, businessResponse: 'not_replied' })).toEqual({
      business_replied: 'false',
    });
    expect(hasActiveFilters({ ...NO_FILTERS, readStatus: 'unread' })).toBe(true);
  });

  it('turns dd-MM-yyyy dates into ISO instants covering the whole local day', () => {
    const params = toQueryParams({ ...NO_FILTERS, createdAfter: '05-03-2026', createdBefore: '07-03-2026' });
    expect(params.created_at__gte).toBe(new Date(2026, 2, 5, 0, 0, 0, 0).toISOString());
    expect(params.created_at__lte).toBe(new Date(2026, 2, 7, 23, 59, 59, 999).toISOString());
    expect(Object.keys(params).sort()).toEqual(['created_at__gte', 'created_at__lte']);
  });

  it('bounds the last message time the same way (lastMessageAfter / lastMessageBefore)', () => {
    const params = toQueryParams({
      ...NO_FILTERS,
      lastMessageAfter: '01-02-2026',
      lastMessageBefore: '28-02-2026',
    });
    expect(params).toEqual({
      last_message_at__gte: new Date(2026, 1, 1, 0, 0, 0, 0).toISOString(),
      last_message_at__lte: new Date(2026, 1, 28, 23, 59, 59, 999).toISOString(),
    });
    expect(hasActiveFilters({ ...NO_FILTERS, lastMessageBefore: '28-02-2026' })).toBe(true);
  });

  it('reads and writes dd-MM-yyyy, and ignores anything else', () => {
    expect(formatFilterDate(new Date(2026, 0, 9))).toBe('09-01-2026');
    expect(parseFilterDate('09-01-2026')).toEqual(new Date(2026, 0, 9));
    expect(parseFilterDate('2026-01-09')).toBeNull();
    expect(parseFilterDate('31-02-2026')).toBeNull();
    expect(parseFilterDate('')).toBeNull();
    expect(toQueryParams({ ...NO_FILTERS, createdAfter: 'not a date' })).toEqual({});
  });
});
