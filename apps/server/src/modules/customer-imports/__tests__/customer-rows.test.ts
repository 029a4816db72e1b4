// The import's table of which row first had each customer: a million customers in typed arrays,
// the first row kept, and ids of any size.
import { describe, expect, it } from 'vitest';
import { CustomerRows } from '../customer-rows';

describe('the customers an import has touched', () => {
  it('keeps the first row of each of a million customers, past 32-bit ids too', () => {
    const rows = new CustomerRows();
    for (let i = 1; i <= 1_000_000; i++) rows.add(i * 7, i + 1);
    // A later row with the same customer does not replace the first.
    rows.add(7, 999);
    rows.add(2 ** 40 + 3, 5);
    rows.add(2 ** 40 + 3, 6);
    rows.add(2 ** 32 + 7, 8);
    expect(rows.get(7)).toBe(2);
    expect(rows.get(7 * 654_321)).toBe(654_322);
    expect(rows.get(7_000_000)).toBe(1_000_001);
    expect(rows.get(8)).toBeUndefined();
    expect(rows.get(2 ** 40 + 3)).toBe(5);
    // 2^32 + 7 shares its low 32 bits with 7: neither hides the other.
    expect(rows.get(2 ** 32 + 7)).toBe(8);
    expect(rows.get(2 ** 53 - 1)).toBeUndefined();
  });
});
