// CSV imports into the visitor directory (engage.md §3): the file is stored under customer_lists/,
// then a job streams it, row by row, committing in batches and keeping every refused row with its
// reason. Read while it runs: GET …/imports/{id}/.
import { z } from 'zod';
import { SEGMENT_FIELD_KEY_PATTERN } from './customer-lists';

export const IMPORT_MODES = ['skip', 'overwrite', 'merge'] as const;
export const ZImportMode = z.enum(IMPORT_MODES);
export type TImportMode = z.infer<typeof ZImportMode>;

export const IMPORT_ENCODINGS = [
  'auto',
  'utf-8',
  'utf-16le',
  'windows-1252',
  'iso-8859-1',
  'iso-8859-15',
  'macintosh',
] as const;
export const ZImportEncoding = z.enum(IMPORT_ENCODINGS);

/** What a column of the file becomes; any other text is a custom field of that name. */
export const IMPORT_TARGETS = ['name', 'email', 'phone', 'external_id', 'ignore'] as const;

/** The spec's CSV header reader: a column name lower-cased, control characters removed, trimmed. */
export const importHeaderName = (raw: string) =>
  raw
    .replace(/\p{Cc}/gu, '')
    .trim()
    .toLowerCase();

/**
 * The encoding of a CSV file from its first bytes, as the import reads it (and the web preview
 * shows it): a BOM says it, else UTF-8 when the bytes are valid UTF-8, else Windows-1252. `whole`:
 * the bytes are the whole file (otherwise a character cut at the sample's end is left out).
 */
export function detectImportEncoding(
  head: Uint8Array,
  whole: boolean,
): 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(
      whole ? head : head.subarray(0, Math.max(0, head.length - 4)),
    );
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/** The contact parts a column can fill, and the header names read as each of them. */
export const IMPORT_COLUMN_ALIASES = {
  name: ['name', 'full name', 'fullname', 'full_name', 'customer name', 'contact name', 'display name'],
  first_name: ['first name', 'first_name', 'firstname', 'given name'],
  last_name: ['last name', 'last_name', 'lastname', 'surname', 'family name'],
  email: ['email', 'e-mail', 'email address', 'e-mail address', 'email_address', 'mail'],
  phone: [
    'phone',
    'phone number',
    'phone_number',
    'mobile',
    'mobile number',
    'mobile phone',
    'telephone',
    'tel',
    'cell',
    'whatsapp',
    'whatsapp number',
  ],
  external_id: ['external_id', 'external id', 'user id', 'user_id', 'customer id', 'customer_id'],
} as const satisfies Record<string, readonly string[]>;
export type TImportContactPart = keyof typeof IMPORT_COLUMN_ALIASES;

/** What a column becomes: a contact part, ignored, or a custom field of that name. */
export type TImportColumnTarget = TImportContactPart | 'ignore' | `field:${string}`;

/** What a column (its name as the header reader read it) becomes when not mapped otherwise. */
export function autoImportTarget(column: string): TImportColumnTarget {
  for (const [target, names] of Object.entries(IMPORT_COLUMN_ALIASES) as [
    TImportContactPart,
    readonly string[],
  ][])
    if (names.includes(column)) return target;
  return SEGMENT_FIELD_KEY_PATTERN.test(column) ? `field:${column}` : 'ignore';
}

/** 100 MB: about a million rows of a typical customer export. */
export const IMPORT_FILE_LIMIT_BYTES = 100 * 1024 * 1024;

export const IMPORT_MESSAGES = {
  noFile: 'No file was submitted.',
  tooLarge: 'The file is larger than 100 MB. Split it and import the parts.',
  empty: 'The file is empty.',
  notCsv: 'This file is not a CSV file: its first line has no column names.',
  noContactColumn:
    'The file has no email or phone column: name one of its columns "email" or "phone", or map one.',
  badColumnMap:
    'The column map must be a JSON object of column name to name, email, phone, external_id, ignore or a field name.',
  unknownColumn: (column: string) => `The file has no column "${column}".`,
  notFound: 'No such import.',
} as const;

export const ZImportFields = z.object({
  mode: ZImportMode.default('skip'),
  list_id: z.coerce.number().int().positive().optional(),
  encoding: ZImportEncoding.default('auto'),
  /** JSON: {"E-mail Address": "email", "Company": "company", "Notes": "ignore"}. */
  column_map: z.string().max(10_000).optional(),
});
export type TImportFields = z.infer<typeof ZImportFields>;

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

export const ZCustomerImport = z.object({
  id: z.string(),
  file_name: z.string(),
  status: z.enum(IMPORT_STATUSES),
  mode: ZImportMode,
  encoding: z.string(),
  list_id: z.number().int().nullable(),
  /** The file's columns as the header reader read them, and what each became. */
  columns: z.array(z.object({ name: z.string(), target: z.string() })),
  total_rows: z.number().int().nullable(),
  processed_rows: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  /** A CSV of the refused and skipped rows with a reason column; null while there are none. */
  errors_url: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TCustomerImport = z.infer<typeof ZCustomerImport>;

export const ZImportParams = z.object({ id: z.uuid('Not a valid import id.') });
