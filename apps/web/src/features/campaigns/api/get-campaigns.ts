// GET /api/campaigns/ → a page of the business's campaigns, newest first.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZCampaign, ZEnvelope, ZPage } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { CAMPAIGNS_API_PATH, CAMPAIGNS_KEY } from './keys';

export const CAMPAIGNS_PAGE_SIZE = 20;

export function campaignsQueryOptions(page: number) {
  const params = { page, page_size: CAMPAIGNS_PAGE_SIZE };
  return queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'page', params],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(CAMPAIGNS_API_PATH, { params, signal });
      return ZEnvelope(ZPage(ZCampaign)).parse(data).result;
    },
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export const useCampaigns = (page: number) => useQuery(campaignsQueryOptions(page));
