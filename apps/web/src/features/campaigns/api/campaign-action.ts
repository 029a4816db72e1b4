// POST /api/campaigns/{id}/schedule/ | pause/ | resume/ | cancel/, and DELETE of a draft.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZCampaign, ZEnvelope, type TCampaign } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { campaignApiPath, CAMPAIGNS_KEY } from './keys';

export type TCampaignAction = 'schedule' | 'pause' | 'resume' | 'cancel';

export async function runCampaignAction(id: string, action: TCampaignAction): Promise<TCampaign> {
  const { data } = await protectedClient.post(`${campaignApiPath(id)}${action}/`);
  return ZEnvelope(ZCampaign).parse(data).result;
}

export function useCampaignAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: TCampaignAction) => runCampaignAction(id, action),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY }),
  });
}

export function useDeleteCampaign(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await protectedClient.delete(campaignApiPath(id));
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY }),
  });
}
