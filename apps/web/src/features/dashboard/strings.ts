// User-visible strings of the dashboard root screen.
export const DASHBOARD_STRINGS = {
  heading: 'Dashboard',
  emptyTitle: 'Nothing here yet',
  emptyText: 'The workspace areas arrive here as they are built.',
} as const;
