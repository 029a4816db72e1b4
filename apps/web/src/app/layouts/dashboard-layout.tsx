// The shell around every /engage screen: product name and theme switch; navigation to the
// workspace areas is added as they are built.
import { Link, Outlet } from 'react-router';

import { ThemeToggle } from '../../components/theme-toggle';
import { DASHBOARD_PATH } from '../paths';

export function DashboardLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="flex h-14 items-center justify-between border-b px-4 md:px-6">
        <Link to={DASHBOARD_PATH} className="text-lg font-semibold tracking-tight">
          Titan
        </Link>
        <ThemeToggle />
      </header>
      <main className="flex-1">
        <Outlet />
      </main>
    </div>
  );
}
