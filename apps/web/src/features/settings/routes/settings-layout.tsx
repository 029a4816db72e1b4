// /engage/settings: the heading, the grouped settings sidebar (spec: /engage/settings/{tab}) and the
// open tab. On a phone the sidebar becomes a select naming the open section: every section is one tap
// away and none hides off-screen.
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';

import { PageLayout } from '../../../components/layout/page-layout';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { SETTINGS_PATH, settingsPath, type TSettingsTab } from '../../../config/paths';
import { cn } from '../../../lib/utils';
import { SETTINGS_STRINGS } from '../strings';

function openTab(pathname: string): TSettingsTab | '' {
  const segment = pathname.slice(SETTINGS_PATH.length + 1).split('/')[0] ?? '';
  return SETTINGS_STRINGS.groups.some((g) => (g.tabs as string[]).includes(segment))
    ? (segment as TSettingsTab)
    : '';
}

export function SettingsLayout() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = openTab(pathname);
  return (
    <PageLayout title={SETTINGS_STRINGS.heading}>
      <div className="flex flex-col gap-6 md:grid md:grid-cols-[12rem_minmax(0,1fr)] md:items-start">
        <div className="flex flex-col gap-2 md:hidden">
          <Label htmlFor="settings-section">{SETTINGS_STRINGS.section}</Label>
          <NativeSelect
            id="settings-section"
            value={current}
            onChange={(e) => void navigate(settingsPath(e.target.value as TSettingsTab))}
          >
            {current === '' ? <option value="">—</option> : null}
            {SETTINGS_STRINGS.groups.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {group.tabs.map((tab) => (
                  <option key={tab} value={tab}>
                    {SETTINGS_STRINGS.tabs[tab]}
                  </option>
                ))}
              </optgroup>
            ))}
          </NativeSelect>
        </div>
        <nav
          aria-label={SETTINGS_STRINGS.heading}
          className="hidden flex-col gap-4 md:sticky md:top-4 md:flex"
        >
          {SETTINGS_STRINGS.groups.map((group) => (
            <div key={group.label} className="flex flex-col gap-1">
              <h2 className="px-3 text-xs font-medium tracking-wide text-muted-foreground uppercase">
                {group.label}
              </h2>
              {group.tabs.map((tab) => (
                <NavLink
                  key={tab}
                  to={settingsPath(tab)}
                  className={({ isActive }) =>
                    cn(
                      'rounded-md px-3 py-1.5 text-sm font-medium transition-colors',
                      isActive
                        ? 'bg-accent text-accent-foreground'
                        : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
                    )
                  }
                >
                  {SETTINGS_STRINGS.tabs[tab]}
                </NavLink>
              ))}
            </div>
          ))}
        </nav>
        <div className="flex min-w-0 flex-col gap-6">
          <Outlet />
        </div>
      </div>
    </PageLayout>
  );
}
