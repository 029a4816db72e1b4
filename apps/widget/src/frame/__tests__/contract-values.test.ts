import * as contracts from '@titan/contracts';
import { describe, expect, it } from 'vitest';
import * as mirrored from '../contract-values';

describe('values the chat mirrors from @titan/contracts', () => {
  it('equal the contracts’ own', () => {
    for (const [name, value] of Object.entries(mirrored)) {
      expect(contracts[name as keyof typeof contracts], name).toBe(value);
    }
  });
});
