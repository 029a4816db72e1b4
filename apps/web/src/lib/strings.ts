// User-visible strings of the shared layer: the spec section 8 error catalogue (verbatim) and the
// shared components.
export const API_ERROR_STRINGS = {
  timeout: 'That took longer than expected — wanna try again?',
  somethingWentWrong: 'Something went wrong',
  network: 'The server could not be reached. Check your connection and try again.',
} as const;

export const BLOCKER_MODAL_STRINGS = {
  close: 'Close',
} as const;

export const PRODUCT_NAME = 'Titan';

export const CONFIRM_ACTION_STRINGS = { cancel: 'Cancel' } as const;

export const UNSAVED_CHANGES_STRINGS = {
  title: 'Leave without saving?',
  text: 'Your changes on this page are not saved yet. If you leave now, they are lost.',
  stay: 'Stay and keep editing',
  leave: 'Leave and discard changes',
} as const;

export const COPY_STRINGS = {
  copy: 'Copy',
  copied: 'Copied',
  failed: 'Could not copy. Select the text and copy it yourself.',
} as const;

export const LOAD_STATE_STRINGS = {
  loadFailed: 'This could not be loaded.',
  retry: 'Try again',
} as const;

export const PAGER_STRINGS = {
  pagination: 'Pages',
  range: (from: number, to: number, count: number) => `${from}–${to} of ${count}`,
  previous: 'Previous page',
  next: 'Next page',
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  /** A count that stopped at a cap (a directory search): more than `count`. */
  rangeOfMore: (from: number, to: number, count: number) =>
    `${from}–${to} of ${count.toLocaleString('en-US')}+`,
  page: (page: number) => `Page ${page}`,
} as const;

export const AUDIENCE_EXPORT_STRINGS = {
  exportCsv: 'Export CSV',
  exporting: 'Exporting…',
  exported: (fileName: string) => `Downloaded ${fileName}`,
  failed: 'The export could not be downloaded.',
} as const;

export const LABEL_STRINGS = {
  labels: 'Labels',
  label: 'Label',
  none: 'No labels yet. Add them in Settings → Labels.',
  /** A chip's accessible text. */
  chip: (name: string) => `Label: ${name}`,
  more: (n: number) => `+${n}`,
  moreLabel: (names: string[]) => `More labels: ${names.join(', ')}`,
} as const;
