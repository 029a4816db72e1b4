// GET /api/business/: the name and dial code the preview shows, as the public page will.
import { useQuery } from '@tanstack/react-query';
import { ZBusiness, ZEnvelope } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export function useBusinessCard() {
  return useQuery({
    // The same key as the settings' business profile: one cached answer for both.
    queryKey: [BUSINESS_SCOPE, 'current'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get('/api/business/', { signal });
      return ZEnvelope(ZBusiness).parse(data).result;
    },
    select: (business) => ({ name: business.name, dial_code: business.dial_code }),
    meta: { errorShownOnScreen: true },
  });
}
