// Paths of the app's screens, so links and redirects never spell them twice.
export const DASHBOARD_PATH = '/engage';
