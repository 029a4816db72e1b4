import { describe, expect, it } from 'vitest';

import { csvFileName } from '../api/download-event-logs';
import { filtersFromParams, logQuery, pageFromParams, paramsFromFilters } from '../utils/log-filters';

describe('log filters', () => {
  it('reads valid filters from the URL and drops the rest', () => {
    const params = new URLSearchParams('status=failed&search=%20order%20&from=2026-03-01&to=soon&page=3');
    expect(filtersFromParams(params)).toEqual({
      status: 'failed',
      search: 'order',
      from: '2026-03-01',
      to: '',
    });
    expect(pageFromParams(params)).toBe(3);
    expect(filtersFromParams(new URLSearchParams('status=lost')).status).toBe('');
    expect(pageFromParams(new URLSearchParams('page=-1'))).toBe(1);
  });

  it('writes them back without empty values or page 1', () => {
    expect(paramsFromFilters({ status: '', search: 'x', from: '', to: '2026-03-31' }, 1).toString()).toBe(
      'search=x&to=2026-03-31',
    );
    expect(paramsFromFilters({ status: 'read', search: '', from: '', to: '' }, 2).toString()).toBe(
      'status=read&page=2',
    );
  });

  it('turns a day range into created_at bounds covering whole days of the business’s zone', () => {
    expect(
      logQuery({ status: '', search: '', from: '2026-03-01', to: '2026-03-31' }, 'Europe/Berlin'),
    ).toEqual({
      created_at__gte: '2026-02-28T23:00:00.000Z',
      created_at__lte: '2026-03-31T21:59:59.999Z',
    });
    expect(logQuery({ status: '', search: '', from: '', to: '' }, 'UTC')).toEqual({});
  });
});

describe('CSV file name', () => {
  it("takes the server's name, encoded or plain, else one with today's date", () => {
    expect(csvFileName('whatsapp', "attachment; filename*=UTF-8''logs%20m%C3%A4rz.csv")).toBe(
      'logs märz.csv',
    );
    expect(csvFileName('whatsapp', 'attachment; filename="whatsapp.csv"')).toBe('whatsapp.csv');
    expect(csvFileName('whatsapp', undefined, new Date('2026-03-02T12:00:00Z'))).toBe(
      'whatsapp-logs-2026-03-02.csv',
    );
    expect(csvFileName('email', undefined, new Date('2026-03-02T12:00:00Z'))).toBe(
      'email-logs-2026-03-02.csv',
    );
  });
});
