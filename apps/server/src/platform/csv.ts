// The one CSV cell writer for every file Titan hands out (directory export, event logs, import
// errors). Spreadsheets open these files, so a cell must neither run as a formula nor split: in
// locales whose list separator is `;` (most of Europe) an unquoted `a;=1+2` is two cells, the second
// a formula the leading-character guard never saw.

export type CsvValue = string | number | boolean | null | undefined;

/** A leading =, +, -, @, tab or CR makes a spreadsheet read text as a formula. */
const FORMULA = /^[=+\-@\t\r]/;
/** What ends a cell in some reader: quotes, either list separator, line breaks, tabs. */
const NEEDS_QUOTES = /[",;\r\n\t]/;

/**
 * One cell: text that would run as a formula gets a leading `'` (numbers and booleans are values,
 * never formulas); a cell holding a quote, comma, semicolon, tab or line break is quoted with its
 * quotes doubled (RFC 4180).
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CRLF-terminated line of cells. */
export const csvLine = (cells: readonly CsvValue[]): string => `${cells.map(csvCell).join(',')}\r\n`;
