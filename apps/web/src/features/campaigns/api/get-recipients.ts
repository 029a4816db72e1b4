// GET /api/campaigns/{id}/recipients/ → a page of recipients, each with their send.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZCampaignRecipient, ZEnvelope, ZPage } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { campaignApiPath, CAMPAIGNS_KEY } from './keys';

export const RECIPIENTS_PAGE_SIZE = 25;

export function recipientsQueryOptions(id: string, page: number) {
  const params = { page, page_size: RECIPIENTS_PAGE_SIZE };
  return queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'recipients', id, params],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(`${campaignApiPath(id)}recipients/`, { params, signal });
      return ZEnvelope(ZPage(ZCampaignRecipient)).parse(data).result;
    },
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export const useRecipients = (id: string, page: number) => useQuery(recipientsQueryOptions(id, page));
