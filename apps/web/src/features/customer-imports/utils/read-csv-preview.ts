// Reads the start of a chosen CSV file in the browser for the import preview: its delimiter (as
// the server tells it: comma, semicolon, tab or pipe), the column names as the spec's header
// reader gives them (lower-cased, control characters removed) and the first rows. A file the browser cannot read is refused with the spec's file reading error for why.
import {
  detectImportDelimiter,
  detectImportEncoding,
  IMPORT_DELIMITERS,
  importHeaderName,
  type TImportDelimiter,
} from '@titan/contracts';

import { FILE_READING_ERRORS, IMPORT_STRINGS as S } from '../strings';

/** Enough of the file for its header and first rows; the server reads the whole file. */
export const PREVIEW_BYTES = 64 * 1024;
export const PREVIEW_ROWS = 5;

export type TCsvPreview = { delimiter: TImportDelimiter; columns: string[]; rows: string[][] };

export class FileReadingError extends Error {}

/** The spec's message for a FileReader failure, by the DOMException's name. */
export function fileReadingMessage(error: { name?: string } | null | undefined): string {
  switch (error?.name) {
    case 'NotReadableError':
      return FILE_READING_ERRORS.notReadable;
    case 'NotFoundError':
      return FILE_READING_ERRORS.notFound;
    case 'AbortError':
      return FILE_READING_ERRORS.aborted;
    case 'EncodingError':
      return FILE_READING_ERRORS.encoding;
    case 'SecurityError':
      return FILE_READING_ERRORS.security;
    default:
      return FILE_READING_ERRORS.unknown;
  }
}

/** Bytes as text the way the server will read the file (a BOM, valid UTF-8, else Windows-1252). */
export const decodeHead = (bytes: Uint8Array, whole: boolean): string =>
  new TextDecoder(detectImportEncoding(bytes, whole)).decode(bytes);

/** The text of the file's first bytes, or a FileReadingError with the spec's message. */
export function readFileHead(file: Blob, bytes = PREVIEW_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    let reader: FileReader;
    try {
      reader = new FileReader();
    } catch {
      reject(new FileReadingError(FILE_READING_ERRORS.unknown));
      return;
    }
    reader.onload = () => {
      if (!(reader.result instanceof ArrayBuffer))
        return reject(new FileReadingError(FILE_READING_ERRORS.encoding));
      try {
        resolve(decodeHead(new Uint8Array(reader.result), file.size <= bytes));
      } catch {
        reject(new FileReadingError(FILE_READING_ERRORS.encoding));
      }
    };
    reader.onerror = () => reject(new FileReadingError(fileReadingMessage(reader.error)));
    reader.onabort = () => reject(new FileReadingError(FILE_READING_ERRORS.aborted));
    try {
      reader.readAsArrayBuffer(file.slice(0, bytes));
    } catch (error) {
      reject(new FileReadingError(fileReadingMessage(error as { name?: string })));
    }
  });
}

/**
 * CSV records (RFC 4180: quoted cells may hold commas, quotes and line breaks) of `text`. When the
 * text is only the start of the file, the last record may be cut: `complete` false leaves it out.
 */
export function parseCsv(
  text: string,
  complete: boolean,
  limit = Infinity,
  delimiter: TImportDelimiter = 'comma',
): string[][] {
  const separator = IMPORT_DELIMITERS[delimiter];
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(cell);
    if (record.length > 1 || record[0] !== '') records.push(record);
    record = [];
    cell = '';
  };
  for (; i < text.length && records.length < limit; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === separator) {
      record.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else cell += ch;
  }
  if (records.length < limit && complete && (cell !== '' || record.length > 0)) endRecord();
  return records;
}

/** The preview of a file: its columns and first rows, or a FileReadingError saying why not. */
export async function readCsvPreview(file: File): Promise<TCsvPreview> {
  if (file.size === 0) throw new FileReadingError(S.fileEmpty);
  const text = await readFileHead(file);
  if (text.trim() === '') throw new FileReadingError(S.fileEmpty);
  // Binary files (a spreadsheet saved as .xlsx, an image) are not CSV.
  if (text.includes('\u0000')) throw new FileReadingError(S.fileNotCsv);
  const whole = file.size <= PREVIEW_BYTES;
  const delimiter = detectImportDelimiter(text, whole);
  const records = parseCsv(text, whole, PREVIEW_ROWS + 1, delimiter);
  const columns = (records[0] ?? []).map(importHeaderName);
  if (columns.every((c) => c === '')) throw new FileReadingError(S.fileNotCsv);
  return { delimiter, columns, rows: records.slice(1) };
}
