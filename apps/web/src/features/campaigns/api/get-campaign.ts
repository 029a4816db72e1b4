// GET /api/campaigns/{id}/ → one campaign; while it sends, read again every few seconds.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZCampaign, ZEnvelope, type TCampaign } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { campaignApiPath, CAMPAIGNS_KEY } from './keys';

const live = (c: TCampaign | undefined) => c?.status === 'sending' || c?.status === 'scheduled';

export function campaignQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'one', id],
    queryFn: async ({ signal }): Promise<TCampaign> => {
      const { data } = await protectedClient.get(campaignApiPath(id), { signal });
      return ZEnvelope(ZCampaign).parse(data).result;
    },
    refetchInterval: (query) => (live(query.state.data) ? 3000 : false),
    meta: { errorShownOnScreen: true },
  });
}

export const useCampaign = (id: string) => useQuery(campaignQueryOptions(id));
