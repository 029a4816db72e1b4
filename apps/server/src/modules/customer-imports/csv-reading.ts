// Reading customer CSV files: the encoding (a BOM, else UTF-8 when the whole file is valid UTF-8,
// else Windows-1252 when every byte is one; a file that is neither is refused, never read with
// replacement characters), the delimiter (comma, semicolon, tab or pipe), the spec's
// header reader (the first line's column names, lower-cased, control characters removed), what
// each column becomes, and each row checked and normalised (email lower-cased, phone in E.164).
import { isUtf8 } from 'node:buffer';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { z } from 'zod';
import {
  autoImportTarget,
  detectImportDelimiter,
  IMPORT_DELIMITERS,
  importHeaderName,
  IMPORT_MESSAGES,
  SEGMENT_FIELD_KEY_PATTERN,
  type TImportColumnTarget,
  type TImportDelimiter,
} from '@titan/contracts';
import type { ImportedRow } from '../directory/directory.service';
import { toE164 } from '../../platform/phone-numbers';

/** The spec's CSV header reader (shared with the web app's preview). */
export const headerName = importHeaderName;

export class ImportFileError extends Error {
  constructor(
    message: string,
    /** The request field the message is about. */
    readonly field: 'file' | 'encoding' | 'column_map' = 'file',
  ) {
    super(message);
  }
}

/** The encoding a byte order mark at the file's start says, if it has one. */
function bomEncoding(bytes: Buffer): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

const WINDOWS_1252_UNDEFINED = [0x81, 0x8d, 0x8f, 0x90, 0x9d];

/** Bytes decoded at a time when checking a whole file: its text is never held at once. */
const CHECK_CHUNK_BYTES = 1 << 20;

/** Whether every byte of the file decodes in `encoding` (no replacement character made up). */
function decodesCleanly(bytes: Buffer, encoding: string): boolean {
  if (encoding === 'utf-8') {
    const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    return isUtf8(bytes.subarray(bom));
  }
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const decoder = new TextDecoder(encoding, { fatal: true });
    try {
      for (let at = 0; at < bytes.length; at += CHECK_CHUNK_BYTES)
        decoder.decode(bytes.subarray(at, at + CHECK_CHUNK_BYTES), { stream: true });
      decoder.decode();
      return true;
    } catch {
      return false;
    }
  }
  // The five bytes Windows-1252 leaves undefined (iconv-lite would make U+FFFD of them): found by
  // memchr over the bytes, nothing decoded.
  if (encoding === 'windows-1252') return WINDOWS_1252_UNDEFINED.every((byte) => bytes.indexOf(byte) === -1);
  // Other single-byte encodings: no such file can hold a real U+FFFD, so one means a byte the
  // encoding leaves undefined.
  for (let at = 0; at < bytes.length; at += CHECK_CHUNK_BYTES)
    if (iconv.decode(bytes.subarray(at, at + CHECK_CHUNK_BYTES), encoding).includes('\uFFFD')) return false;
  return true;
}

/**
 * The encoding the whole file is read in: as chosen, or detected — a BOM says it, else UTF-8 when
 * every byte of the file is valid UTF-8 (an accent first met after megabytes counts), else
 * Windows-1252. `refused`: why the file cannot be read in it (it does not decode cleanly), to say
 * once the file is known to be CSV at all — rather than import names garbled into U+FFFD.
 */
export function readEncoding(
  bytes: Buffer,
  chosen: string,
): { encoding: string; refused: ImportFileError | null } {
  const check = (encoding: string, refusal: () => ImportFileError) => ({
    encoding,
    refused: decodesCleanly(bytes, encoding) ? null : refusal(),
  });
  const wrong = (encoding: string) => () =>
    new ImportFileError(IMPORT_MESSAGES.notInEncoding(encoding), 'encoding');
  if (chosen !== 'auto') return check(chosen, wrong(chosen));
  const bom = bomEncoding(bytes);
  if (bom) return check(bom, wrong(bom));
  if (decodesCleanly(bytes, 'utf-8')) return { encoding: 'utf-8', refused: null };
  return check('windows-1252', () => new ImportFileError(IMPORT_MESSAGES.undecodable));
}

/** The delimiter to read the file with: as chosen, or from its first records. */
export const settleDelimiter = (head: string, whole: boolean, chosen: TImportDelimiter | 'auto') =>
  chosen === 'auto' ? detectImportDelimiter(head, whole) : chosen;

export const delimiterChar = (name: TImportDelimiter) => IMPORT_DELIMITERS[name];

export const decode = (bytes: Buffer, encoding: string) => iconv.decode(bytes, encoding);
export const decodeStream = (encoding: string) => iconv.decodeStream(encoding);

export type ColumnTarget = TImportColumnTarget;

const autoTarget = autoImportTarget;

const ZColumnMap = z.record(z.string(), z.string().trim().min(1).max(64));

/**
 * The file's header (the first record, read by the header reader) and what each column becomes:
 * by its name, or as `columnMap` says. Refuses a file that is empty, not CSV, or without an
 * email or phone column.
 */
export function readHeader(
  head: string,
  columnMapJson: string | undefined,
  delimiter: TImportDelimiter = 'comma',
): { columns: { name: string; target: ColumnTarget }[] } {
  if (head.trim() === '') throw new ImportFileError(IMPORT_MESSAGES.empty);
  let first: string[] | undefined;
  try {
    first = (
      parseSync(head, {
        to_line: 1,
        relax_column_count: true,
        relax_quotes: true,
        delimiter: IMPORT_DELIMITERS[delimiter],
      }) as string[][]
    )[0];
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
      throw new ImportFileError(IMPORT_MESSAGES.badColumnMap, 'column_map');
    }
    const checked = ZColumnMap.safeParse(parsed);
    if (!checked.success) throw new ImportFileError(IMPORT_MESSAGES.badColumnMap, 'column_map');
    map = Object.fromEntries(Object.entries(checked.data).map(([k, v]) => [headerName(k), v.toLowerCase()]));
    for (const column of Object.keys(map))
      if (!names.includes(column))
        throw new ImportFileError(IMPORT_MESSAGES.unknownColumn(column), 'column_map');
  }
  const columns = names.map((name) => {
    const wanted = map[name];
    if (!wanted) return { name, target: name ? autoTarget(name) : ('ignore' as ColumnTarget) };
    if (['name', 'first_name', 'last_name', 'email', 'phone', 'external_id', 'ignore'].includes(wanted))
      return { name, target: wanted as ColumnTarget };
    if (!SEGMENT_FIELD_KEY_PATTERN.test(wanted))
      throw new ImportFileError(IMPORT_MESSAGES.badColumnMap, 'column_map');
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
