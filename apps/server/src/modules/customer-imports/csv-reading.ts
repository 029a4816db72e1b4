// Reading customer CSV files: the encoding (a BOM, else UTF-8 when the whole file is valid UTF-8,
// else Windows-1252 when every byte is one; a file that is neither is refused, never read with
// replacement characters), the delimiter (comma, semicolon, tab or pipe), the spec's
// header reader (the first line's column names, lower-cased, control characters removed), what
// each column becomes, and each row checked and normalised (email lower-cased, phone in E.164).
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { parse as parseSync } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { z } from 'zod';
import {
  autoImportTarget,
  detectImportDelimiter,
  IMPORT_DELIMITERS,
  importHeaderName,
  IMPORT_ERRORS,
  SEGMENT_FIELD_KEY_PATTERN,
  type TImportColumnTarget,
  type TImportDelimiter,
} from '@titan/contracts';
import type { ImportedRow } from '../directory';
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

/** Whether a file's bytes, fed chunk by chunk, all decode in one encoding (no U+FFFD made up). */
type EncodingCheck = { push(chunk: Buffer): void; end(): boolean };

/** Bytes a UTF-8 sequence starting with `lead` has (0: not a lead byte). */
const utf8Length = (lead: number) =>
  lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0;

/**
 * UTF-8 validity across chunks: each chunk checked natively (isUtf8) up to a sequence it cuts
 * short, whose first bytes (3 at most) wait for the next chunk.
 */
function utf8Check(): EncodingCheck {
  let carry: Buffer | null = null;
  let valid = true;
  return {
    push(chunk) {
      if (!valid) return;
      const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
      let cut = bytes.length;
      for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 3); i--) {
        if ((bytes[i]! & 0xc0) === 0x80) continue;
        if (bytes.length - i < utf8Length(bytes[i]!)) cut = i;
        break;
      }
      valid = isUtf8(bytes.subarray(0, cut));
      carry = cut < bytes.length ? Buffer.from(bytes.subarray(cut)) : null;
    },
    end: () => valid && carry === null,
  };
}

function decoderCheck(encoding: string): EncodingCheck {
  if (encoding === 'utf-8') return utf8Check();
  if (encoding === 'windows-1252') {
    // The five bytes Windows-1252 leaves undefined (iconv-lite would make U+FFFD of them): found
    // by memchr over the bytes, nothing decoded.
    let clean = true;
    return {
      push(chunk) {
        if (clean) clean = WINDOWS_1252_UNDEFINED.every((byte) => chunk.indexOf(byte) === -1);
      },
      end: () => clean,
    };
  }
  if (encoding === 'utf-16le' || encoding === 'utf-16be') {
    const decoder = new TextDecoder(encoding, { fatal: true });
    let clean = true;
    const run = (step: () => void) => {
      if (!clean) return;
      try {
        step();
      } catch {
        clean = false;
      }
    };
    return {
      push: (chunk) => run(() => decoder.decode(chunk, { stream: true })),
      end() {
        run(() => decoder.decode());
        return clean;
      },
    };
  }
  // Other single-byte encodings: no such file can hold a real U+FFFD, so one means a byte the
  // encoding leaves undefined.
  let clean = true;
  return {
    push(chunk) {
      if (clean) clean = !iconv.decode(chunk, encoding).includes('\uFFFD');
    },
    end: () => clean,
  };
}

/** Whether a whole stream decodes cleanly in `encoding` (a stored file read again). */
export async function streamDecodesCleanly(stream: Readable, encoding: string): Promise<boolean> {
  const check = decoderCheck(encoding);
  for await (const chunk of stream as AsyncIterable<Buffer>) check.push(chunk);
  return check.end();
}

/** The bytes of a file's start that the upload's checks read (header, delimiter). */
export const HEAD_BYTES = 64 * 1024;

/**
 * What the upload's checks need of a file, gathered as its bytes stream by on their way to
 * storage, so the file is never held whole: its size, its first HEAD_BYTES, its BOM, and whether
 * it is valid UTF-8 and clean Windows-1252 (what detection chooses between) — and in `expected`,
 * the encoding chosen when that was sent before the file, or the one its BOM says.
 */
export class FileInspector {
  size = 0;
  private headChunks: Buffer[] = [];
  private headBytes = 0;
  private checks = new Map<string, EncodingCheck>();
  /** Chunks until the first 3 bytes are in (the BOM decides what else to check). */
  private early: Buffer[] | null = [];
  private results: Map<string, boolean> | null = null;

  constructor(private readonly expected: string | undefined) {}

  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.headBytes < HEAD_BYTES) {
      const part = chunk.subarray(0, HEAD_BYTES - this.headBytes);
      this.headChunks.push(Buffer.from(part));
      this.headBytes += part.length;
    }
    if (this.early) {
      this.early.push(chunk);
      if (this.headBytes >= 3) this.startChecks();
      return;
    }
    for (const check of this.checks.values()) check.push(chunk);
  }

  private startChecks(): void {
    const wanted = new Set(['utf-8', 'windows-1252']);
    const bom = bomEncoding(this.head());
    if (bom) wanted.add(bom);
    if (this.expected && this.expected !== 'auto') wanted.add(this.expected);
    for (const encoding of wanted) this.checks.set(encoding, decoderCheck(encoding));
    const early = this.early!;
    this.early = null;
    for (const chunk of early) for (const check of this.checks.values()) check.push(chunk);
  }

  end(): void {
    if (this.early) this.startChecks();
    this.results = new Map([...this.checks].map(([encoding, check]) => [encoding, check.end()]));
  }

  head(): Buffer {
    if (this.headChunks.length > 1) this.headChunks = [Buffer.concat(this.headChunks)];
    return this.headChunks[0] ?? Buffer.alloc(0);
  }

  /** Whether the whole file decodes in `encoding`; undefined when it was not checked on the way. */
  decodesIn(encoding: string): boolean | undefined {
    return this.results?.get(encoding);
  }
}

/**
 * The encoding the whole file is read in: as chosen, or detected — a BOM says it, else UTF-8 when
 * every byte of the file is valid UTF-8 (an accent first met after megabytes counts), else
 * Windows-1252. `refused`: why the file cannot be read in it (it does not decode cleanly), to say
 * once the file is known to be CSV at all — rather than import names garbled into U+FFFD.
 * `readAgain` checks the stored file in an encoding the upload's pass did not check.
 */
export async function readEncoding(
  file: FileInspector,
  chosen: string,
  readAgain: (encoding: string) => Promise<boolean>,
): Promise<{ encoding: string; refused: ImportFileError | null }> {
  const decodes = async (encoding: string) => file.decodesIn(encoding) ?? (await readAgain(encoding));
  const check = async (encoding: string, refusal: () => ImportFileError) => ({
    encoding,
    refused: (await decodes(encoding)) ? null : refusal(),
  });
  const wrong = (encoding: string) => () =>
    new ImportFileError(IMPORT_ERRORS.notInEncoding(encoding), 'encoding');
  if (chosen !== 'auto') return check(chosen, wrong(chosen));
  const bom = bomEncoding(file.head());
  if (bom) return check(bom, wrong(bom));
  if (await decodes('utf-8')) return { encoding: 'utf-8', refused: null };
  return check('windows-1252', () => new ImportFileError(IMPORT_ERRORS.undecodable));
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
  if (head.trim() === '') throw new ImportFileError(IMPORT_ERRORS.empty);
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
    throw new ImportFileError(IMPORT_ERRORS.notCsv);
  }
  const names = (first ?? []).map(headerName);
  if (names.length === 0 || names.every((n) => n === '') || head.includes('\u0000'))
    throw new ImportFileError(IMPORT_ERRORS.notCsv);
  let map: Record<string, string> = {};
  if (columnMapJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(columnMapJson);
    } catch {
      throw new ImportFileError(IMPORT_ERRORS.badColumnMap, 'column_map');
    }
    const checked = ZColumnMap.safeParse(parsed);
    if (!checked.success) throw new ImportFileError(IMPORT_ERRORS.badColumnMap, 'column_map');
    map = Object.fromEntries(Object.entries(checked.data).map(([k, v]) => [headerName(k), v.toLowerCase()]));
    for (const column of Object.keys(map))
      if (!names.includes(column))
        throw new ImportFileError(IMPORT_ERRORS.unknownColumn(column), 'column_map');
  }
  const columns = names.map((name) => {
    const wanted = map[name];
    if (!wanted) return { name, target: name ? autoTarget(name) : ('ignore' as ColumnTarget) };
    if (['name', 'first_name', 'last_name', 'email', 'phone', 'external_id', 'ignore'].includes(wanted))
      return { name, target: wanted as ColumnTarget };
    if (!SEGMENT_FIELD_KEY_PATTERN.test(wanted))
      throw new ImportFileError(IMPORT_ERRORS.badColumnMap, 'column_map');
    return { name, target: `field:${wanted}` as ColumnTarget };
  });
  if (!columns.some((c) => c.target === 'email' || c.target === 'phone'))
    throw new ImportFileError(IMPORT_ERRORS.noContactColumn);
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
