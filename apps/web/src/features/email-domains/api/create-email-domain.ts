// POST /api/email/domains/ {domain} → the new domain with the records to publish (400 on `domain`).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEmailDomain, ZEnvelope, type TCreateEmailDomainRequest, type TEmailDomain } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_DOMAINS_PATH, emailDomainsQueryOptions } from '../../../lib/email-domains';

export async function createEmailDomain(body: TCreateEmailDomainRequest): Promise<TEmailDomain> {
  const { data } = await protectedClient.post(EMAIL_DOMAINS_PATH, body);
  return ZEnvelope(ZEmailDomain).parse(data).result;
}

export function useCreateEmailDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEmailDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailDomainsQueryOptions().queryKey }),
  });
}
