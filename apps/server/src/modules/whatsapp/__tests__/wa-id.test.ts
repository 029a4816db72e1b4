import { describe, expect, it } from 'vitest';
import { contactLockKey, isWaExternalId, waDigitsOf, waExternalId } from '../wa-id';

describe('wa-id', () => {
  it('keeps the stored external id and the advisory-lock key texts', () => {
    expect(waExternalId('15551234567')).toBe('wa:15551234567');
    expect(contactLockKey(7, '15551234567')).toBe('wa:7:15551234567');
  });

  it('reads the digits back only from a WhatsApp external id', () => {
    expect(waDigitsOf('wa:15551234567')).toBe('15551234567');
    expect(isWaExternalId('wa:15551234567')).toBe(true);
    for (const other of ['web:abc', 'wa:', 'wa:12a', 'xwa:123', null, undefined]) {
      expect(waDigitsOf(other)).toBeNull();
      expect(isWaExternalId(other)).toBe(false);
    }
  });
});
