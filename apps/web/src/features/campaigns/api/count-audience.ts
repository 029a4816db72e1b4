// POST /api/campaigns/audience/count/ → the audience as chosen, counted live.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  ZCampaignAudienceCount,
  ZEnvelope,
  type TCampaignAudience,
  type TCampaignChannel,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { CAMPAIGNS_API_PATH, CAMPAIGNS_KEY } from './keys';

/** `ready`: the audience's ids are known to be lists or segments (the choices have loaded). */
export function audienceCountQueryOptions(
  channel: TCampaignChannel,
  audience: TCampaignAudience,
  ready = true,
) {
  return queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'audience-count', channel, audience],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.post(
        `${CAMPAIGNS_API_PATH}audience/count/`,
        { channel, audience },
        { signal },
      );
      return ZEnvelope(ZCampaignAudienceCount).parse(data).result;
    },
    enabled: ready && audience.list_ids.length + audience.segment_ids.length > 0,
    placeholderData: keepPreviousData,
  });
}

export const useAudienceCount = (channel: TCampaignChannel, audience: TCampaignAudience, ready = true) =>
  useQuery(audienceCountQueryOptions(channel, audience, ready));
