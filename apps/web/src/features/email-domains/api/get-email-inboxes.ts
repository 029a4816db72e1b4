// GET /api/email/inboxes/ (next-api.md "Every channel in the inbox"): the business's inbox
// addresses, each with the records to publish.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailInbox, ZEnvelope, type TEmailInbox } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const EMAIL_INBOXES_PATH = '/api/email/inboxes/';
export const EMAIL_INBOXES_KEY = [BUSINESS_SCOPE, 'email-inboxes'] as const;

export function emailInboxesQueryOptions() {
  return queryOptions({
    queryKey: EMAIL_INBOXES_KEY,
    queryFn: async ({ signal }): Promise<TEmailInbox[]> => {
      const { data } = await protectedClient.get(EMAIL_INBOXES_PATH, { signal });
      return ZEnvelope(z.array(ZEmailInbox)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useEmailInboxes = () => useQuery(emailInboxesQueryOptions());
