// The shell around every signed-in workspace screen: navbar (product, business switcher, theme, user
// menu), navigation to every area, and the screen. Rendered once the business guard has passed.
import { Link, Outlet, useLoaderData } from 'react-router';

import { ThemeToggle } from '../../components/theme-toggle';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { CommandPalette } from '../../features/conversations/keyboard/command-palette';
import { DASHBOARD_PATH } from '../../config/paths';
import { useNavbarStore } from '../../stores/navbar';
import { BusinessSwitcher } from '../components/business-switcher';
import { MobileNav, SidebarNav } from '../components/sidebar-nav';
import { UserMenu } from '../components/user-menu';
import type { TBusinessContext } from '../guards';
import { SHELL_STRINGS } from '../strings';

export function EngageLayout() {
  const { profile, membership } = useLoaderData<TBusinessContext>();
  const navbarVisible = useNavbarStore((state) => state.isVisible);
  return (
    <div className="flex min-h-dvh flex-col">
      {navbarVisible ? (
        <header className="flex h-14 shrink-0 items-center gap-2 border-b px-4 sm:gap-3 md:px-6">
          <MobileNav />
          <Link to={DASHBOARD_PATH} className="text-lg font-semibold tracking-tight">
            {SHELL_STRINGS.productName}
          </Link>
          <span aria-hidden="true" className="text-muted-foreground">
            /
          </span>
          <BusinessSwitcher businesses={profile.businesses} current={membership} />
          <div className="ml-auto flex shrink-0 items-center gap-2 sm:gap-3">
            <NotificationBell businessCode={membership.unique_code} />
            <ThemeToggle />
            <UserMenu user={profile} />
          </div>
        </header>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col md:flex-row">
        <SidebarNav />
        {/* Keyed by business: switching remounts every screen, so nothing of the previous one lingers. */}
        <CommandPalette />
        <main key={membership.unique_code} className="min-w-0 flex-1">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
