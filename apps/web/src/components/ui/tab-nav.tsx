// The one tab strip of the app: links to sibling views (a channel of an area, a channel of a run log).
// The strip wraps onto a second line instead of hiding tabs off-screen.
import { NavLink } from 'react-router';

import { cn } from '../../lib/utils';

export type TTabNavItem = { label: string; to: string; end?: boolean; active?: boolean };

export const tabClass = (active: boolean) =>
  cn(
    '-mb-px border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors',
    active
      ? 'border-primary text-foreground'
      : 'border-transparent text-muted-foreground hover:text-foreground',
  );

export function TabNav({
  label,
  items,
  className,
}: {
  label: string;
  items: TTabNavItem[];
  className?: string;
}) {
  return (
    <nav aria-label={label} className={cn('flex flex-wrap gap-x-1 border-b', className)}>
      {items.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          end={item.end ?? true}
          className={({ isActive }) => tabClass(item.active ?? isActive)}
          aria-current={item.active === undefined ? undefined : item.active ? 'page' : undefined}
        >
          {item.label}
        </NavLink>
      ))}
    </nav>
  );
}
