// What the column mapping sends: the server's column map, and whether it names a contact column.
import type { TImportColumnTarget } from '@titan/contracts';

/** Whether the mapping names a column for email or phone (the server refuses a file without). */
export const hasContactColumn = (targets: TImportColumnTarget[]) =>
  targets.some((t) => t === 'email' || t === 'phone');

/** The column map the server takes: column name → name, email, phone, …, ignore or a field name. */
export function columnMap(columns: string[], targets: TImportColumnTarget[]): Record<string, string> {
  return Object.fromEntries(
    columns.flatMap((column, i) => {
      const target = targets[i] ?? 'ignore';
      return column ? [[column, target.startsWith('field:') ? target.slice(6) : target]] : [];
    }),
  );
}
