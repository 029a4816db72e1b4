// Campaigns: the list, the composer (a new campaign, or a draft), one campaign's progress and results.
import { type RouteObject } from 'react-router';

import { CAMPAIGNS_PATH, NEW_CAMPAIGN_PATH } from '../../config/paths';
import { type TRouteHandle } from '../document-title';
import { PAGE_TITLES as T, SHELL_STRINGS } from '../strings';

export const CAMPAIGNS_ROUTES: RouteObject[] = [
  {
    path: CAMPAIGNS_PATH,
    handle: { title: SHELL_STRINGS.areas.campaigns } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/campaigns/routes/campaigns-route')).CampaignsRoute,
    }),
  },
  {
    path: NEW_CAMPAIGN_PATH,
    handle: { title: T.newCampaign } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/campaigns/routes/composer-route')).NewCampaignRoute,
    }),
  },
  {
    path: `${CAMPAIGNS_PATH}/:id/edit`,
    handle: { title: T.editCampaign } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/campaigns/routes/composer-route')).EditCampaignRoute,
    }),
  },
  {
    path: `${CAMPAIGNS_PATH}/:id`,
    handle: { title: T.campaign } satisfies TRouteHandle,
    lazy: async () => ({
      Component: (await import('../../features/campaigns/routes/campaign-route')).CampaignRoute,
    }),
  },
];
