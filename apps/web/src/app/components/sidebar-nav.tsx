// Navigation to every area of the product (spec section 2): a sidebar on wide screens, a menu button
// opening a sheet on phones (never a sideways strip with areas off-screen).
import {
  BookOpenIcon,
  BotIcon,
  FileTextIcon,
  LayoutDashboardIcon,
  MegaphoneIcon,
  MenuIcon,
  MessagesSquareIcon,
  ScrollTextIcon,
  SettingsIcon,
  SparklesIcon,
  UsersIcon,
  WorkflowIcon,
  XIcon,
  type LucideIcon,
} from 'lucide-react';
import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useState } from 'react';
import { NavLink, useLocation } from 'react-router';

import { Button } from '../../components/ui/button';

import {
  AGENTS_PATH,
  AI_TEMPLATE_PATH,
  DASHBOARD_PATH,
  CAMPAIGNS_PATH,
  JOURNEYS_PATH,
  DIRECTORY_PATH,
  EVENT_LOGS_PATH,
  KNOWLEDGE_PATH,
  MESSAGES_PATH,
  SETTINGS_PATH,
  settingsPath,
  TEMPLATES_PATH,
} from '../../config/paths';
import { cn } from '../../lib/utils';
import { useUnreadNotifications } from '../../stores/unread-notifications';
import { SHELL_STRINGS, type TArea } from '../strings';

type TNavItem = { area: TArea; to: string; icon: LucideIcon; end?: boolean; activeUnder?: string };

const NAV_ITEMS: TNavItem[] = [
  { area: 'dashboard', to: DASHBOARD_PATH, icon: LayoutDashboardIcon, end: true },
  { area: 'conversations', to: MESSAGES_PATH, icon: MessagesSquareIcon },
  { area: 'agents', to: AGENTS_PATH, icon: BotIcon },
  { area: 'templates', to: TEMPLATES_PATH, icon: FileTextIcon },
  { area: 'aiTemplate', to: AI_TEMPLATE_PATH, icon: SparklesIcon },
  { area: 'knowledge', to: KNOWLEDGE_PATH, icon: BookOpenIcon },
  { area: 'campaigns', to: CAMPAIGNS_PATH, icon: MegaphoneIcon },
  { area: 'journeys', to: JOURNEYS_PATH, icon: WorkflowIcon },
  { area: 'eventLogs', to: EVENT_LOGS_PATH, icon: ScrollTextIcon },
  { area: 'directory', to: DIRECTORY_PATH, icon: UsersIcon },
  { area: 'settings', to: settingsPath('business'), icon: SettingsIcon, activeUnder: SETTINGS_PATH },
];

/** The areas as a vertical list of links; `onNavigate` closes the phone menu after a tap. */
export function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  // Unread notifications (assignments, mentions, customer messages) are all about conversations.
  const unread = useUnreadNotifications((s) => s.count);
  return NAV_ITEMS.map(({ area, to, icon: Icon, end, activeUnder }) => (
    <NavLink
      key={area}
      to={to}
      end={end}
      onClick={onNavigate}
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
      {area === 'conversations' && unread > 0 ? (
        <span
          data-testid="nav-unread"
          className="ml-auto rounded-full bg-primary px-1.5 text-xs leading-5 font-semibold text-primary-foreground"
        >
          {unread > 99 ? '99+' : unread}
        </span>
      ) : null}
    </NavLink>
  ));
}

/** The sidebar from tablet width up; phones open the same links from the header's menu button. */
export function SidebarNav() {
  return (
    <nav
      aria-label={SHELL_STRINGS.navigation}
      className="hidden w-56 shrink-0 flex-col gap-1 border-r p-2 md:flex"
    >
      <NavLinks />
    </nav>
  );
}

/** The phone's menu button: a sheet from the left with every area, closed after a choice. */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Trigger asChild>
        <Button variant="ghost" size="icon" className="-ml-2 md:hidden" aria-label={SHELL_STRINGS.openMenu}>
          <MenuIcon aria-hidden="true" />
        </Button>
      </DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col gap-2 overflow-y-auto border-r bg-background p-3 shadow-lg"
        >
          <div className="flex items-center justify-between pl-3">
            <DialogPrimitive.Title className="text-lg font-semibold tracking-tight">
              {SHELL_STRINGS.productName}
            </DialogPrimitive.Title>
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="icon" aria-label={SHELL_STRINGS.closeMenu}>
                <XIcon aria-hidden="true" />
              </Button>
            </DialogPrimitive.Close>
          </div>
          <nav aria-label={SHELL_STRINGS.navigation} className="flex flex-col gap-1">
            <NavLinks onNavigate={() => setOpen(false)} />
          </nav>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
