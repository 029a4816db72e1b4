// GET /api/template/{id}/ → one template with its source.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailTemplate, ZEnvelope, type TEmailTemplate } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_TEMPLATES_KEY, emailTemplateApiPath } from '../../../lib/email-templates';

export async function getEmailTemplate(id: number, signal?: AbortSignal): Promise<TEmailTemplate> {
  const { data } = await protectedClient.get(emailTemplateApiPath(id), { signal });
  return ZEnvelope(ZEmailTemplate).parse(data).result;
}

export function emailTemplateQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...EMAIL_TEMPLATES_KEY, 'detail', id],
    queryFn: ({ signal }) => getEmailTemplate(id, signal),
    meta: { errorShownOnScreen: true },
    // The editor holds the source being edited: a background refetch must not replace it.
    staleTime: Infinity,
  });
}

export function useEmailTemplate(id: number) {
  return useQuery(emailTemplateQueryOptions(id));
}
