// GET /api/campaigns/{id}/checklist/ → what must hold before sending.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZCampaignChecklist, ZEnvelope } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { campaignApiPath, CAMPAIGNS_KEY } from './keys';

export function checklistQueryOptions(id: string) {
  return queryOptions({
    queryKey: [...CAMPAIGNS_KEY, 'checklist', id],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(`${campaignApiPath(id)}checklist/`, { signal });
      return ZEnvelope(ZCampaignChecklist).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useChecklist = (id: string, enabled: boolean) =>
  useQuery({ ...checklistQueryOptions(id), enabled });
