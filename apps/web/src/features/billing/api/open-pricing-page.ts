// POST /api/chargebee/pricing-page-session/ → Chargebee's hosted pricing page, opened in this tab.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZPricingPageSession } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export function useOpenPricingPage() {
  return useMutation({
    mutationFn: async () => {
      const { data } = await protectedClient.post('/api/chargebee/pricing-page-session/');
      return ZEnvelope(ZPricingPageSession).parse(data).result.url;
    },
    onSuccess: (url) => window.location.assign(url),
  });
}
