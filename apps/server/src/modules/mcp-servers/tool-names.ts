// Tool names as models accept them (`^[a-zA-Z0-9_-]{1,64}$`): prefixed by their source and its id so
// two servers' `search` never collide, other characters replaced, and long names cut with a hash of
// the whole so that two cut names stay apart.
import { sha256 } from '../../platform/crypto';

const MAX = 64;

export function modelToolName(source: 'mcp' | 'plugin', sourceId: number, name: string): string {
  const raw = `${source}${sourceId}_${name}`.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (raw.length <= MAX) return raw;
  return `${raw.slice(0, MAX - 9)}_${sha256(raw).slice(0, 8)}`;
}
