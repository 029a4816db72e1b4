// Tool names as models accept them: prefixed by source and id, other characters replaced, long names
// cut with a hash so that two long names stay apart.
import { describe, expect, it } from 'vitest';
import { TOOL_NAME_PATTERN } from '@titan/contracts';
import { modelToolName } from '../tool-names';

describe('modelToolName', () => {
  it('prefixes by source and id and replaces what models refuse', () => {
    expect(modelToolName('mcp', 12, 'lookup_order')).toBe('mcp12_lookup_order');
    expect(modelToolName('plugin', 3, 'orders.get v2')).toBe('plugin3_orders_get_v2');
  });

  it('cuts long names to 64 characters, keeping two long names apart', () => {
    const a = modelToolName('mcp', 1, `${'x'.repeat(80)}_alpha`);
    const b = modelToolName('mcp', 1, `${'x'.repeat(80)}_beta`);
    for (const name of [a, b]) {
      expect(name).toMatch(TOOL_NAME_PATTERN);
      expect(name).toHaveLength(64);
    }
    expect(a).not.toBe(b);
  });
});
