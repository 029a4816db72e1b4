// POST /api/email/domains/{id}/verify/ → the domain as its name servers answer now.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEmailDomain, ZEnvelope, type TEmailDomain } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_DOMAINS_PATH, emailDomainsQueryOptions } from '../../../lib/email-domains';

export async function verifyEmailDomain(id: number): Promise<TEmailDomain> {
  const { data } = await protectedClient.post(`${EMAIL_DOMAINS_PATH}${id}/verify/`);
  return ZEnvelope(ZEmailDomain).parse(data).result;
}

export function useVerifyEmailDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyEmailDomain,
    onSuccess: (domain) => {
      // The answer is the domain as it now is: show it at once, then refetch the list.
      queryClient.setQueryData(emailDomainsQueryOptions().queryKey, (list) =>
        list?.map((d) => (d.id === domain.id ? domain : d)),
      );
      return queryClient.invalidateQueries({ queryKey: emailDomainsQueryOptions().queryKey });
    },
  });
}
