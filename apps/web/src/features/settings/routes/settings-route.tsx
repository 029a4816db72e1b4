// /engage/settings/{tab}: Business profile, Team, API keys and Profile. An unknown tab opens the first.
import { Navigate, NavLink, useParams } from 'react-router';

import { SETTINGS_TABS, settingsPath, type TSettingsTab } from '../../../config/paths';
import { cn } from '../../../lib/utils';
import { ApiKeysTab } from '../components/api-keys-tab';
import { BusinessProfileTab } from '../components/business-profile-tab';
import { ProfileTab } from '../components/profile-tab';
import { TeamTab } from '../components/team-tab';
import { SETTINGS_STRINGS } from '../strings';

function isSettingsTab(value: string | undefined): value is TSettingsTab {
  return SETTINGS_TABS.some((tab) => tab === value);
}

function TabContent({ tab }: { tab: TSettingsTab }) {
  switch (tab) {
    case 'business':
      return <BusinessProfileTab />;
    case 'team':
      return <TeamTab />;
    case 'api-keys':
      return <ApiKeysTab />;
    case 'profile':
      return <ProfileTab />;
    default: {
      const unreachable: never = tab;
      return unreachable;
    }
  }
}

export function SettingsRoute() {
  const { tab } = useParams();
  if (!isSettingsTab(tab)) return <Navigate to={settingsPath('business')} replace />;
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
      <TabContent tab={tab} />
    </section>
  );
}
