// User-visible strings of labels and canned responses in the inbox (issue 29).
export const INBOX_LABEL_STRINGS = {
  labels: 'Labels',
  labelConversation: 'Label conversation',
  addLabel: 'Add label',
  labelsSaved: 'Labels saved.',
  labelled: (n: number) => `Labelled ${n} conversation${n === 1 ? '' : 's'}.`,
  filterByLabel: 'Filter by label',
  labelFilter: (name: string) => `Label: ${name}`,
  anyLabel: 'Any label',
  labelCount: (n: number) => `, ${n} conversation${n === 1 ? '' : 's'}`,
} as const;
