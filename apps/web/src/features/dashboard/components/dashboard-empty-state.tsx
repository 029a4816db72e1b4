import { LayoutDashboardIcon } from 'lucide-react';

import { DASHBOARD_STRINGS } from '../strings';

export function DashboardEmptyState() {
  return (
    <div className="flex flex-col items-center justify-center gap-2 rounded-lg border border-dashed p-10 text-center">
      <LayoutDashboardIcon aria-hidden="true" className="size-8 text-muted-foreground" />
      <h2 className="font-medium">{DASHBOARD_STRINGS.emptyTitle}</h2>
      <p className="text-sm text-muted-foreground">{DASHBOARD_STRINGS.emptyText}</p>
    </div>
  );
}
