// POST /api/chargebee/portal-session/ → Chargebee's hosted portal, opened in this tab.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZPortalSession } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export function useOpenPortal() {
  return useMutation({
    mutationFn: async () => {
      const { data } = await protectedClient.post('/api/chargebee/portal-session/');
      return ZEnvelope(ZPortalSession).parse(data).result.access_url;
    },
    onSuccess: (url) => window.location.assign(url),
  });
}
