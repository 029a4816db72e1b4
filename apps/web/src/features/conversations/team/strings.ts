// User-visible strings of the team inbox (issue 29): assignment, views, bulk changes, notes.
export const TEAM_INBOX_STRINGS = {
  views: 'Inbox views',
  viewAll: 'All',
  viewMine: 'Mine',
  viewUnassigned: 'Unassigned',
  viewMore: 'More views',
  byAssignee: 'By assignee',
  byGroup: 'By chat group',
  noGroup: 'No group',
  viewCount: (label: string, n: number) => `${label} ${n} ${n === 1 ? 'conversation' : 'conversations'}`,

  assignee: 'Assignee',
  unassigned: 'Unassigned',
  assignedTo: (name: string) => `Assigned to ${name}`,
  assignToMe: 'Assign to me',
  unassign: 'Unassign',
  assignTo: 'Assign to',
  assigned: (name: string) => `Assigned to ${name}.`,
  unassignedDone: 'Unassigned.',
  rowActions: (name: string) => `Actions for ${name}`,

  select: (name: string) => `Select conversation with ${name}`,
  selected: (n: number) => `${n} selected`,
  bulkActions: 'Bulk actions',
  resolve: 'Resolve',
  reopen: 'Reopen',
  clearSelection: 'Clear selection',
  bulkDone: (n: number) => `${n} conversation${n === 1 ? '' : 's'} updated.`,

  reply: 'Reply',
  note: 'Private note',
  composerMode: 'Composer mode',
  notePlaceholder: 'Write a note for your team… type @ to mention',
  noteLabel: 'Private note',
  addNote: 'Add note',
  noteBadge: 'Private note',
  noteHint: 'Only your team sees notes.',
  mentionList: 'Mention a member',
  noteFailed: 'The note could not be saved.',

  visitor: 'Visitor',
  someone: 'Someone',
  typing: (names: string[]) =>
    names.length === 1
      ? `${names[0]} is typing…`
      : names.length === 2
        ? `${names[0]} and ${names[1]} are typing…`
        : `${names[0]} and ${names.length - 1} others are typing…`,
} as const;
