// One slug rule for names shown in addresses (chat groups, help-centre categories and articles):
// lowercase ASCII letters, digits and single hyphens, accents folded ("Crème brûlée" → "creme-brulee").

/** "Support & Sales (EU)" → "support-sales-eu"; '' when nothing Latin is left. */
export function slugify(text: string, max = 80): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, max)
    .replace(/-+$/, '');
}
