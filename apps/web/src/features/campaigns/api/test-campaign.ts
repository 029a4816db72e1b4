// POST /api/campaigns/{id}/test/ {to} → the test sends' ids (each variant to each address).
import { useMutation } from '@tanstack/react-query';
import { ZCampaignTestResult, ZEnvelope } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { campaignApiPath } from './keys';

export function useTestCampaign(id: string) {
  return useMutation({
    mutationFn: async (to: string[]) => {
      const { data } = await protectedClient.post(`${campaignApiPath(id)}test/`, { to });
      return ZEnvelope(ZCampaignTestResult).parse(data).result;
    },
  });
}
