import type { TEmailDomain } from '@titan/contracts';
import { describe, expect, it } from 'vitest';

import { suggestedFromAddress } from '../email-domains';

const domain = (
  name: string,
  status: TEmailDomain['status'],
  defaultFrom: string | null = null,
): TEmailDomain => ({
  id: name.length,
  domain: name,
  status,
  last_checked_at: null,
  default_from: defaultFrom,
  created_at: '2026-11-20T10:00:00Z',
  records: [],
});

describe('suggestedFromAddress', () => {
  it('offers the person’s own address when its domain is verified', () => {
    const domains = [domain('mail.acme.test', 'verified'), domain('acme.test', 'verified')];
    expect(suggestedFromAddress(domains, 'Ada@ACME.test')).toBe('ada@acme.test');
  });

  it('offers hello@ the first verified domain otherwise, never a pending or failed one', () => {
    const domains = [
      domain('pending.test', 'pending'),
      domain('failed.test', 'failed'),
      domain('acme.test', 'verified'),
    ];
    expect(suggestedFromAddress(domains, 'ada@gmail.com')).toBe('hello@acme.test');
    expect(suggestedFromAddress(domains, null)).toBe('hello@acme.test');
  });

  it('offers the default sender set on a verified domain first, never one of an unverified domain', () => {
    const domains = [
      domain('pending.test', 'pending', 'Pending <news@pending.test>'),
      domain('acme.test', 'verified'),
      domain('mail.acme.test', 'verified', 'Acme <news@mail.acme.test>'),
    ];
    expect(suggestedFromAddress(domains, 'ada@acme.test')).toBe('Acme <news@mail.acme.test>');
    expect(suggestedFromAddress(domains.slice(0, 2), 'ada@gmail.com')).toBe('hello@acme.test');
  });

  it('offers nothing when no domain is verified', () => {
    expect(suggestedFromAddress([domain('pending.test', 'pending')], 'ada@pending.test')).toBeNull();
    expect(suggestedFromAddress([], 'ada@acme.test')).toBeNull();
  });
});
