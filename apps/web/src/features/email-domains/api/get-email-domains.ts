// GET /api/email/domains/ → the business's sending domains with their records and last check.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailDomain, ZEnvelope, type TEmailDomain } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const EMAIL_DOMAINS_PATH = '/api/email/domains/';

export async function getEmailDomains(): Promise<TEmailDomain[]> {
  const { data } = await protectedClient.get(EMAIL_DOMAINS_PATH);
  return ZEnvelope(z.array(ZEmailDomain)).parse(data).result;
}

export function emailDomainsQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'email-domains'],
    queryFn: getEmailDomains,
    meta: { errorShownOnScreen: true },
  });
}

export function useEmailDomains() {
  return useQuery(emailDomainsQueryOptions());
}
