// /engage/settings: the heading and the tabs (spec: /engage/settings/{tab}) around the open tab.
import { NavLink, Outlet } from 'react-router';

import { SETTINGS_TABS, settingsPath } from '../../../config/paths';
import { cn } from '../../../lib/utils';
import { SETTINGS_STRINGS } from '../strings';

export function SettingsLayout() {
  return (
    <section className="mx-auto flex w-full max-w-5xl flex-col gap-6 p-4 md:p-6">
      <h1 className="text-2xl font-semibold tracking-tight">{SETTINGS_STRINGS.heading}</h1>
      <nav aria-label={SETTINGS_STRINGS.heading} className="flex gap-1 overflow-x-auto border-b">
        {SETTINGS_TABS.map((item) => (
          <NavLink
            key={item}
            to={settingsPath(item)}
            className={({ isActive }) =>
              cn(
                '-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
                isActive
                  ? 'border-primary text-foreground'
                  : 'border-transparent text-muted-foreground hover:text-foreground',
              )
            }
          >
            {SETTINGS_STRINGS.tabs[item]}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </section>
  );
}
