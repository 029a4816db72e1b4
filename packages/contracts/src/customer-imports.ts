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

/** The delimiters an import reads, by the name it reports. */
export const IMPORT_DELIMITERS = { comma: ',', semicolon: ';', tab: '\t', pipe: '|' } as const;
export type TImportDelimiter = keyof typeof IMPORT_DELIMITERS;
/** The delimiters' names, in the order the detector tries them. */
export const IMPORT_DELIMITER_NAMES = [
  'comma',
  'semicolon',
  'tab',
  'pipe',
] as const satisfies readonly TImportDelimiter[];
const DELIMITER_NAMES: readonly TImportDelimiter[] = IMPORT_DELIMITER_NAMES;
/** Records looked at to tell the delimiter. */
const DELIMITER_SAMPLE_RECORDS = 50;

/**
 * The delimiter of a CSV file from its first records (`complete`: the text is the whole file,
 * otherwise its last record may be cut and is left out): of comma, semicolon, tab and pipe, the
 * one found outside quotes the same number of times in every record, the most times; when none is
 * that regular (rows with missing trailing cells), the one the header has most of; comma when the
 * header has none (a one-column file). Excel in European locales saves with semicolons.
 */
export function detectImportDelimiter(text: string, complete: boolean): TImportDelimiter {
  const counts: number[][] = [];
  let current = DELIMITER_NAMES.map(() => 0);
  let quoted = false;
  let empty = true;
  const endRecord = () => {
    if (!empty) counts.push(current);
    current = DELIMITER_NAMES.map(() => 0);
    empty = true;
  };
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const ch = text[i]!;
    // A doubled quote inside a quoted cell toggles twice: it stays quoted.
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) {
      endRecord();
      if (counts.length > DELIMITER_SAMPLE_RECORDS) break;
      continue;
    } else if (!quoted) {
      const at = DELIMITER_NAMES.findIndex((name) => IMPORT_DELIMITERS[name] === ch);
      if (at !== -1) current[at]!++;
    }
    empty = false;
  }
  if (complete) endRecord();
  const header = counts[0];
  if (!header) return 'comma';
  let best: TImportDelimiter = 'comma';
  let bestScore = 0;
  DELIMITER_NAMES.forEach((name, at) => {
    const cells = header[at]!;
    if (cells === 0) return;
    const regular = counts.every((record) => record[at] === cells);
    // Regular ones rank above every irregular one.
    const score = (regular ? 1_000_000 : 0) + cells;
    if (score > bestScore) {
      best = name;
      bestScore = score;
    }
  });
  return best;
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

export const IMPORT_ERRORS = {
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
  undecodable:
    'The file is neither UTF-8 nor Windows-1252 text: choose its encoding, or save it again as "CSV UTF-8".',
  notInEncoding: (encoding: string) =>
    `The file is not valid ${encoding} text: choose its encoding, or save it again as "CSV UTF-8".`,
  consentProofRequired:
    'Say how these people agreed: where and when they subscribed (for example “Newsletter form on our website, 2023–2025”).',
  consentChannelsRequired: 'Choose at least one channel they subscribed to.',
} as const;

/**
 * What consent the rows carry: `subscribed` (they agreed, and the business keeps the proof it
 * describes; each new or updated customer whose consent on the chosen channels is unknown becomes
 * subscribed, with a consent record holding the proof), or `unknown` (nothing is recorded and no
 * marketing is sent to them until they opt in). An import never lifts an opt-out or a bounce.
 */
export const IMPORT_CONSENTS = ['unknown', 'subscribed'] as const;
export const ZImportConsent = z.enum(IMPORT_CONSENTS);
export type TImportConsent = z.infer<typeof ZImportConsent>;
export const IMPORT_CONSENT_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type TImportConsentChannel = (typeof IMPORT_CONSENT_CHANNELS)[number];
export const IMPORT_CONSENT_PROOF_MAX = 1000;

export const ZImportFields = z
  .object({
    mode: ZImportMode.default('skip'),
    list_id: z.coerce.number().int().positive().optional(),
    encoding: ZImportEncoding.default('auto'),
    /** JSON: {"E-mail Address": "email", "Company": "company", "Notes": "ignore"}. */
    column_map: z.string().max(10_000).optional(),
    delimiter: z.enum(['auto', ...DELIMITER_NAMES] as ['auto', ...TImportDelimiter[]]).default('auto'),
    consent: ZImportConsent.default('unknown'),
    /**
     * `true`: each row's person is asked to confirm (an email link, or SMS "reply YES") and stays
     * `pending` until they do; the list's own double opt-in asks the same.
     */
    double_opt_in: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** Where and when the rows' people agreed; required with `consent=subscribed`. */
    consent_proof: z.string().trim().max(IMPORT_CONSENT_PROOF_MAX).optional(),
    /** Comma-separated channels the consent covers (email, sms, whatsapp); all three by default. */
    consent_channels: z
      .string()
      .optional()
      .transform((value, ctx) => {
        const names = (value ?? IMPORT_CONSENT_CHANNELS.join(','))
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean);
        const unknown = names.filter((c) => !(IMPORT_CONSENT_CHANNELS as readonly string[]).includes(c));
        if (unknown.length) {
          ctx.addIssue({
            code: 'custom',
            message: `Unknown channel "${unknown[0]}": use email, sms or whatsapp.`,
          });
          return z.NEVER;
        }
        return [...new Set(names)] as TImportConsentChannel[];
      }),
  })
  .superRefine((fields, ctx) => {
    if (fields.consent !== 'subscribed') return;
    if (!fields.consent_proof || fields.consent_proof.length < 10)
      ctx.addIssue({
        code: 'custom',
        path: ['consent_proof'],
        message: IMPORT_ERRORS.consentProofRequired,
      });
    if (fields.consent_channels.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['consent_channels'],
        message: IMPORT_ERRORS.consentChannelsRequired,
      });
  });
export type TImportFields = z.infer<typeof ZImportFields>;

export const IMPORT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

export const ZCustomerImport = z.object({
  id: z.string(),
  file_name: z.string(),
  status: z.enum(IMPORT_STATUSES),
  mode: ZImportMode,
  encoding: z.string(),
  /** The delimiter the file was read with (detected, or as chosen). */
  delimiter: z.enum(DELIMITER_NAMES as [TImportDelimiter, ...TImportDelimiter[]]),
  consent: ZImportConsent,
  consent_proof: z.string().nullable(),
  consent_channels: z.array(z.enum(IMPORT_CONSENT_CHANNELS)),
  double_opt_in: z.boolean(),
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
