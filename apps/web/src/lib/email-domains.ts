// GET /api/email/domains/ → the business's sending domains with their records and last check.
// Shared: the email-domains settings list them, and every form that sends mail (a template's test
// send, agents' senders) offers an address on a verified one.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailDomain, ZEnvelope, type TEmailDomain } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

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

/**
 * A From address to offer on a verified sending domain: the default sender set on a verified domain
 * (what the business's campaigns send from, so a test looks like the real mail), else the person's
 * own address when its domain is verified, else `hello@` the first verified domain; null when no
 * domain is verified yet.
 */
export function suggestedFromAddress(
  domains: readonly TEmailDomain[],
  ownEmail: string | null,
): string | null {
  const verifiedDomains = domains.filter((domain) => domain.status === 'verified');
  if (verifiedDomains.length === 0) return null;
  const chosen = verifiedDomains.find((domain) => domain.default_from)?.default_from;
  if (chosen) return chosen;
  const verified = verifiedDomains.map((domain) => domain.domain);
  const own = ownEmail?.toLowerCase() ?? '';
  const ownDomain = own.slice(own.lastIndexOf('@') + 1);
  if (own.includes('@') && verified.includes(ownDomain)) return own;
  return `hello@${verified[0]}`;
}
