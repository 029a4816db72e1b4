// A suggestion while typing: a group slug from its name, a value the contracts accept (lowercase
// letters, digits and -), by the one slug rule in contracts.
import { slugify } from '@titan/contracts';

export const SLUG_MAX = 50;

/** "Support & Sales (EU)" → "support-sales-eu". */
export function slugFromName(name: string): string {
  return slugify(name, SLUG_MAX);
}
