// Visitors | Lists | Import: the audience area's views (the directory, customer lists and the CSV
// import), as links.
import { NavLink } from 'react-router';

import { DIRECTORY_IMPORT_PATH, DIRECTORY_PATH, LISTS_PATH } from '../config/paths';
import { cn } from '../lib/utils';

const S = { label: 'Audience', directoryTab: 'Visitors', listsTab: 'Lists', importTab: 'Import' } as const;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-md px-3 py-1.5 text-sm font-medium',
    isActive ? 'bg-muted text-foreground' : 'text-muted-foreground hover:text-foreground',
  );

export function AudienceNav() {
  return (
    <nav aria-label={S.label} className="flex gap-1">
      <NavLink end to={DIRECTORY_PATH} className={linkClass}>
        {S.directoryTab}
      </NavLink>
      <NavLink to={LISTS_PATH} className={linkClass}>
        {S.listsTab}
      </NavLink>
      <NavLink to={DIRECTORY_IMPORT_PATH} className={linkClass}>
        {S.importTab}
      </NavLink>
    </nav>
  );
}
