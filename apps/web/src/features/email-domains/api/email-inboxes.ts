// Inbox addresses (next-api.md "Every channel in the inbox"): GET and POST /api/email/inboxes/
// {domain_id, local_part, chat_group_id?} → the address with the records to publish; DELETE …/{id}/.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEmailInbox, ZEnvelope, type TCreateEmailInboxRequest, type TEmailInbox } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const EMAIL_INBOXES_PATH = '/api/email/inboxes/';

export function emailInboxesQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'email-inboxes'],
    queryFn: async ({ signal }): Promise<TEmailInbox[]> => {
      const { data } = await protectedClient.get(EMAIL_INBOXES_PATH, { signal });
      return ZEnvelope(z.array(ZEmailInbox)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useEmailInboxes() {
  return useQuery(emailInboxesQueryOptions());
}

export function useCreateEmailInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TCreateEmailInboxRequest): Promise<TEmailInbox> => {
      const { data } = await protectedClient.post(EMAIL_INBOXES_PATH, body);
      return ZEnvelope(ZEmailInbox).parse(data).result;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailInboxesQueryOptions().queryKey }),
  });
}

export function useDeleteEmailInbox() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${EMAIL_INBOXES_PATH}${id}/`);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: emailInboxesQueryOptions().queryKey }),
  });
}
