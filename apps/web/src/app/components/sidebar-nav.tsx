// Navigation to every area of the product (spec section 2); areas not built yet say so when opened.
import {
  BotIcon,
  FileTextIcon,
  LayoutDashboardIcon,
  MessagesSquareIcon,
  ScrollTextIcon,
  SettingsIcon,
  SparklesIcon,
  UsersIcon,
  type LucideIcon,
} from 'lucide-react';
import { NavLink, useLocation } from 'react-router';

import {
  AGENTS_PATH,
  AI_TEMPLATE_PATH,
  DASHBOARD_PATH,
  DIRECTORY_PATH,
  EVENT_LOGS_PATH,
  MESSAGES_PATH,
  SETTINGS_PATH,
  settingsPath,
  TEMPLATES_PATH,
} from '../../config/paths';
import { cn } from '../../lib/utils';
import { SHELL_STRINGS, type TArea } from '../strings';

type TNavItem = { area: TArea; to: string; icon: LucideIcon; end?: boolean; activeUnder?: string };

const NAV_ITEMS: TNavItem[] = [
  { area: 'dashboard', to: DASHBOARD_PATH, icon: LayoutDashboardIcon, end: true },
  { area: 'conversations', to: MESSAGES_PATH, icon: MessagesSquareIcon },
  { area: 'agents', to: AGENTS_PATH, icon: BotIcon },
  { area: 'templates', to: TEMPLATES_PATH, icon: FileTextIcon },
  { area: 'aiTemplate', to: AI_TEMPLATE_PATH, icon: SparklesIcon },
  { area: 'eventLogs', to: EVENT_LOGS_PATH, icon: ScrollTextIcon },
  { area: 'directory', to: DIRECTORY_PATH, icon: UsersIcon },
  { area: 'settings', to: settingsPath('business'), icon: SettingsIcon, activeUnder: SETTINGS_PATH },
];

export function SidebarNav() {
  const { pathname } = useLocation();
  return (
    <nav
      aria-label={SHELL_STRINGS.navigation}
      className="flex shrink-0 gap-1 overflow-x-auto border-b p-2 md:w-56 md:flex-col md:border-r md:border-b-0"
    >
      {NAV_ITEMS.map(({ area, to, icon: Icon, end, activeUnder }) => (
        <NavLink
          key={area}
          to={to}
          end={end}
          className={({ isActive }) => {
            const active = isActive || (activeUnder !== undefined && pathname.startsWith(activeUnder));
            return cn(
              'flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
              active
                ? 'bg-accent text-accent-foreground'
                : 'text-muted-foreground hover:bg-accent/60 hover:text-foreground',
            );
          }}
        >
          <Icon aria-hidden="true" className="size-4" />
          {SHELL_STRINGS.areas[area]}
        </NavLink>
      ))}
    </nav>
  );
}
