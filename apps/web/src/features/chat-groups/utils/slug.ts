// Suggestions while typing: a group slug from its name, a visitor form field name from its label.
// Both produce values the contracts accept (lowercase letters, digits and - or _).

function plain(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

export const SLUG_MAX = 50;
export const FIELD_NAME_MAX = 40;

/** "Support & Sales (EU)" → "support-sales-eu". */
export function slugFromName(name: string): string {
  return plain(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

/** "Company name" → "company_name"; a label starting with a digit gets an "f_" prefix. */
export function fieldNameFromLabel(label: string): string {
  const base = plain(label)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!base) return '';
  const name = /^[a-z]/.test(base) ? base : `f_${base}`;
  return name.slice(0, FIELD_NAME_MAX).replace(/_+$/, '');
}
