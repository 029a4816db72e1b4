// The dashboard root screen (/engage): an honest empty state until the workspace areas exist.
import { DashboardEmptyState } from '../components/dashboard-empty-state';
import { DASHBOARD_STRINGS } from '../strings';

export function DashboardRoute() {
  return (
    <section className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4 md:p-6">
      <h1 className="text-2xl font-semibold tracking-tight">{DASHBOARD_STRINGS.heading}</h1>
      <DashboardEmptyState />
    </section>
  );
}
