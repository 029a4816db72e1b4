// User-visible strings of labels in the directory (issue 29).
export const DIRECTORY_LABEL_STRINGS = {
  title: 'Labels',
  edit: 'Edit labels',
  none: 'No labels.',
  filter: 'Filter by label',
  filtered: (name: string) => `Label: ${name}`,
  any: 'Any label',
} as const;
