// DELETE /api/email/domains/{id}/: Titan stops sending from the domain and forgets its key.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_DOMAINS_PATH, emailDomainsQueryOptions } from '../../../lib/email-domains';

export async function deleteEmailDomain(id: number): Promise<void> {
  await protectedClient.delete(`${EMAIL_DOMAINS_PATH}${id}/`);
}

export function useDeleteEmailDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmailDomain,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailDomainsQueryOptions().queryKey }),
  });
}
