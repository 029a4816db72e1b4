// POST /api/campaigns/ (a new draft) and PUT /api/campaigns/{id}/ (a draft changed).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCampaign, ZEnvelope, type TCampaign, type TCreateCampaignRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { campaignApiPath, CAMPAIGNS_API_PATH, CAMPAIGNS_KEY } from './keys';

export async function saveCampaign(id: string | null, body: TCreateCampaignRequest): Promise<TCampaign> {
  const { data } = id
    ? await protectedClient.put(campaignApiPath(id), body)
    : await protectedClient.post(CAMPAIGNS_API_PATH, body);
  return ZEnvelope(ZCampaign).parse(data).result;
}

export function useSaveCampaign(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateCampaignRequest) => saveCampaign(id, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY }),
  });
}
