// User-visible strings of the CSV import wizard (/engage/directory/import); tests and components
// share them from here. The file reading errors are the spec's (section 8), word for word; a file
// that is empty, not CSV or without an email or phone column gets the server's own messages.
import { IMPORT_ERRORS, type TImportConsent, type TImportDelimiter } from '@titan/contracts';

export const FILE_READING_ERRORS = {
  notReadable: 'File is not readable',
  notFound: 'File not found',
  aborted: 'File read operation was aborted',
  encoding: 'File encoding issue',
  security: 'Security restrictions prevented reading the file',
  unknown: 'An unknown error occurred while reading the file',
} as const;

export const IMPORT_STRINGS = {
  title: 'Import customers',
  description:
    'Add customers from a CSV file: each row becomes a customer, matched to the directory by email, phone or user id.',
  steps: { file: 'File', columns: 'Columns and options', progress: 'Import' },

  dropLabel: 'CSV file',
  dropTitle: 'Drop a CSV file here',
  dropHint: 'The first line must name the columns. Up to 100 MB.',
  chooseFile: 'Choose a file',
  reading: 'Reading the file…',
  fileEmpty: IMPORT_ERRORS.empty,
  fileNotCsv: IMPORT_ERRORS.notCsv,
  noContactColumn: IMPORT_ERRORS.noContactColumn,
  tooLarge: IMPORT_ERRORS.tooLarge,
  otherFile: 'Choose another file',

  previewTitle: 'Preview',
  previewDescription: (shown: number) =>
    shown === 1
      ? 'The first row of the file, as it will be read.'
      : `The first ${shown} rows of the file, as they will be read.`,
  previewTable: 'First rows of the file',
  noRows: 'The file has column names but no rows yet.',

  delimiter: (name: TImportDelimiter) => `Delimiter: ${name}`,

  consentTitle: 'What consent do these rows carry?',
  consents: {
    subscribed: {
      label: 'They subscribed (I keep proof)',
      hint: 'They agreed to hear from you, and you can show where and when.',
    },
    unknown: {
      label: 'Unknown — don’t send marketing',
      hint: 'Nothing is recorded; marketing waits until each person subscribes.',
    },
  },
  doubleOptIn: 'Email each of them a link to confirm (double opt-in)',
  doubleOptInHint:
    'Each person gets an email from your business asking them to confirm. They are “Pending confirmation” until they press the link, and receive no campaigns before. Recommended in the EU.',
  consentProofLabel: 'Proof: where and when they agreed',
  consentProofPlaceholder: 'For example: newsletter form on our website, 2023–2025',
  consentProofHint:
    'Kept with each customer’s consent record. Customers who unsubscribed, bounced or complained stay so.',
  consentProofShort: 'Describe the proof in at least 10 characters.',
  consentChannelsLabel: 'They subscribed to',
  consentChannels: { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp' },
  consentChannelsNone: 'Choose at least one channel.',
  consentMissing: 'Say what consent these rows carry.',
  consentResult: (consent: TImportConsent, channels: string[]) =>
    consent === 'subscribed' ? `Consent: subscribed (${channels.join(', ')})` : 'Consent: unknown',

  mappingTitle: 'Columns',
  mappingDescription:
    'What each column of the file becomes. Columns are matched by their names; change any that are wrong.',
  mapColumn: (column: string) => `Column “${column}”`,
  targets: {
    name: 'Name',
    first_name: 'First name',
    last_name: 'Last name',
    email: 'Email',
    phone: 'Phone',
    external_id: 'User id on your site',
    ignore: 'Do not import',
    field: (column: string) => `Custom field “${column}”`,
  },

  modeTitle: 'Customers already in the directory',
  modes: {
    skip: { label: 'Skip them', hint: 'Rows matching an existing customer are left out.' },
    overwrite: { label: 'Overwrite them', hint: 'The file’s non-empty values replace the stored ones.' },
    merge: { label: 'Merge', hint: 'Only values the customer is missing are filled in.' },
  },
  listLabel: 'Add them to a list',
  noList: 'No list',
  listHint: 'Every imported customer, new or already known, joins this static list.',

  start: 'Start import',
  starting: 'Uploading…',
  startFailed: 'The file could not be imported.',

  progressLabel: 'Import progress',
  queued: 'Waiting to start…',
  running: (done: number, total: number | null) =>
    total
      ? `${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows`
      : `${done.toLocaleString('en-US')} rows`,
  live: 'Live',
  polling: 'Checking every few seconds',
  loadFailed: 'The import’s progress could not be loaded.',

  doneTitle: 'Import finished',
  failedTitle: 'Import stopped',
  counts: { inserted: 'Added', updated: 'Updated', skipped: 'Skipped', failed: 'Failed' },
  countsLabel: 'Import results',
  downloadErrors: 'Download skipped and failed rows (CSV)',
  downloading: 'Downloading…',
  downloadFailed: 'The CSV could not be downloaded.',
  viewDirectory: 'View the directory',
  importAnother: 'Import another file',
  readOnly: 'Your role can see customers but not import them.',
} as const;
