// An area of the product split by channel (event logs, templates): its heading, a tab per channel
// built so far, and the open tab. Each channel's screen belongs to its feature; the app composes them.
import { Outlet } from 'react-router';

import { PageLayout } from '../../components/layout/page-layout';
import { TabNav } from '../../components/ui/tab-nav';
import { SHELL_STRINGS, type TArea } from '../strings';

export type TAreaTab = { label: string; to: string };

export function AreaTabsLayout({ area, tabs }: { area: TArea; tabs: TAreaTab[] }) {
  const heading = SHELL_STRINGS.areas[area];
  return (
    <PageLayout title={heading}>
      <TabNav label={heading} items={tabs} />
      <Outlet />
    </PageLayout>
  );
}
