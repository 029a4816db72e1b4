// A suggestion while typing: a group slug from its name, a value the contracts accept (lowercase
// letters, digits and -).

export const SLUG_MAX = 50;

/** "Support & Sales (EU)" → "support-sales-eu". */
export function slugFromName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}
