// GET /api/consent/topics/ → the business's consent topics ("Offers", "News"): a campaign may
// target one, and customers who left it in the preference centre are passed over.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZConsentTopic, ZEnvelope } from '@titan/contracts';
import { z } from 'zod';

import { BUSINESS_SCOPE } from '../../../lib/query-client';
import { protectedClient } from '../../../lib/protected-client';

export const CONSENT_TOPICS_API_PATH = '/api/consent/topics/';

export function consentTopicsQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'consent-topics'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(CONSENT_TOPICS_API_PATH, { signal });
      return ZEnvelope(z.array(ZConsentTopic)).parse(data).result;
    },
  });
}

export const useConsentTopics = () => useQuery(consentTopicsQueryOptions());
