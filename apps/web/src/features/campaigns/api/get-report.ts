// GET /api/campaigns/{id}/report/ → totals, variants, links and the hourly series.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZCampaignReport, ZEnvelope } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { campaignApiPath, CAMPAIGNS_KEY } from './keys';

export function reportQueryOptions(id: string, live: boolean) {
  return queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'report', id],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(`${campaignApiPath(id)}report/`, { signal });
      return ZEnvelope(ZCampaignReport).parse(data).result;
    },
    refetchInterval: live ? 5000 : false,
    meta: { errorShownOnScreen: true },
  });
}

export const useReport = (id: string, live: boolean) => useQuery(reportQueryOptions(id, live));
