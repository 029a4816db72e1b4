// Reading customer CSV files: the encoding (a BOM, valid UTF-8, else Windows-1252), the spec's
// header reader (the first line's column names, lower-cased, control characters removed), what
// each column becomes, and each row checked and normalised (email lower-cased, phone in E.164).
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { z } from 'zod';
import {
  autoImportTarget,
  detectImportEncoding,
  importHeaderName,
  IMPORT_MESSAGES,
  SEGMENT_FIELD_KEY_PATTERN,
  type TImportColumnTarget,
} from '@titan/contracts';
import type { ImportedRow } from '../directory/directory.service';
import { toE164 } from '../../platform/phone-numbers';

/** The spec's CSV header reader (shared with the web app's preview). */
export const headerName = importHeaderName;

/** Which encoding a file is in, from its first 64 KB (fewer: the whole file). */
export const detectEncoding = (head: Buffer): string => detectImportEncoding(head, head.length < 65_536);

export const decode = (bytes: Buffer, encoding: string) => iconv.decode(bytes, encoding);
export const decodeStream = (encoding: string) => iconv.decodeStream(encoding);

export type ColumnTarget = TImportColumnTarget;

const autoTarget = autoImportTarget;

const ZColumnMap = z.record(z.string(), z.string().trim().min(1).max(64));

export class ImportFileError extends Error {}

/**
 * The file's header (the first record, read by the header reader) and what each column becomes:
 * by its name, or as `columnMap` says. Refuses a file that is empty, not CSV, or without an
 * email or phone column.
 */
export function readHeader(
  head: string,
  columnMapJson: string | undefined,
): { columns: { name: string; target: ColumnTarget }[] } {
  if (head.trim() === '') throw new ImportFileError(IMPORT_MESSAGES.empty);
  let first: string[] | undefined;
  try {
    first = (parseSync(head, { to_line: 1, relax_column_count: true, relax_quotes: true }) as string[][])[0];
  } catch {
    throw new ImportFileError(IMPORT_MESSAGES.notCsv);
  }
  const names = (first ?? []).map(headerName);
  if (names.length === 0 || names.every((n) => n === '') || head.includes('\u0000'))
    throw new ImportFileError(IMPORT_MESSAGES.notCsv);
  let map: Record<string, string> = {};
  if (columnMapJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(columnMapJson);
    } catch {
      throw new ImportFileError(IMPORT_MESSAGES.badColumnMap);
    }
    const checked = ZColumnMap.safeParse(parsed);
    if (!checked.success) throw new ImportFileError(IMPORT_MESSAGES.badColumnMap);
    map = Object.fromEntries(Object.entries(checked.data).map(([k, v]) => [headerName(k), v.toLowerCase()]));
    for (const column of Object.keys(map))
      if (!names.includes(column)) throw new ImportFileError(IMPORT_MESSAGES.unknownColumn(column));
  }
  const columns = names.map((name) => {
    const wanted = map[name];
    if (!wanted) return { name, target: name ? autoTarget(name) : ('ignore' as ColumnTarget) };
    if (['name', 'first_name', 'last_name', 'email', 'phone', 'external_id', 'ignore'].includes(wanted))
      return { name, target: wanted as ColumnTarget };
    if (!SEGMENT_FIELD_KEY_PATTERN.test(wanted)) throw new ImportFileError(IMPORT_MESSAGES.badColumnMap);
    return { name, target: `field:${wanted}` as ColumnTarget };
  });
  if (!columns.some((c) => c.target === 'email' || c.target === 'phone'))
    throw new ImportFileError(IMPORT_MESSAGES.noContactColumn);
  return { columns };
}

const ZEmail = z.email();

/** One data row as a customer, or the reason it is refused. */
export function readRow(
  values: string[],
  rowNumber: number,
  columns: { name: string; target: ColumnTarget }[],
  dialCode: string | null,
): { row: ImportedRow } | { error: string } {
  let name = '';
  let first = '';
  let last = '';
  let email = '';
  let phone = '';
  let external = '';
  const fields: Record<string, string> = {};
  columns.forEach((column, i) => {
    const value = (values[i] ?? '').trim();
    if (!value) return;
    const t = column.target;
    if (t === 'name') name = value;
    else if (t === 'first_name') first = value;
    else if (t === 'last_name') last = value;
    else if (t === 'email') email = value;
    else if (t === 'phone') phone = value;
    else if (t === 'external_id') external = value;
    else if (t.startsWith('field:')) fields[t.slice(6)] = value.slice(0, 2000);
  });
  if (!name) name = [first, last].filter(Boolean).join(' ');
  if (email && !ZEmail.safeParse(email).success) return { error: `Invalid email address “${email}”.` };
  let e164: string | null = null;
  if (phone) {
    // Titan's own CSV exports defuse cells for spreadsheets with a leading apostrophe ('+4420…).
    e164 = toE164(phone.replace(/^'(?=[+=\-@])/, ''), dialCode);
    if (!e164)
      return {
        error: `Invalid phone number “${phone}”${dialCode ? '' : ' (no country code, and the business has no dial code set)'}.`,
      };
  }
  if (!email && !e164) return { error: 'No email address or phone number.' };
  if (name.length > 150) name = name.slice(0, 150);
  if (external.length > 200) return { error: 'The external id is longer than 200 characters.' };
  return {
    row: {
      rowNumber,
      name: name || null,
      email: email ? email.toLowerCase() : null,
      phone: e164,
      externalId: external ? `widget:${external}` : null,
      fields,
    },
  };
}
