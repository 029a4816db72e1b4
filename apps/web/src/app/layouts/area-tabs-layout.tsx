// An area of the product split by channel (event logs, templates): its heading, a tab per channel
// built so far, and the open tab. Each channel's screen belongs to its feature; the app composes them.
import { NavLink, Outlet } from 'react-router';

import { cn } from '../../lib/utils';
import { SHELL_STRINGS, type TArea } from '../strings';

export type TAreaTab = { label: string; to: string };

export function AreaTabsLayout({ area, tabs }: { area: TArea; tabs: TAreaTab[] }) {
  const heading = SHELL_STRINGS.areas[area];
  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-6 p-4 md:p-6">
      <h1 className="text-2xl font-semibold tracking-tight">{heading}</h1>
      <nav aria-label={heading} className="flex gap-1 overflow-x-auto border-b">
        {tabs.map((tab) => (
          <NavLink
            key={tab.to}
            to={tab.to}
            end
            className={({ isActive }) =>
              cn(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
                isActive
                  ? 'border-primary text-foreground'
                  : 'border-transparent text-muted-foreground hover:text-foreground',
              )
            }
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  );
}
