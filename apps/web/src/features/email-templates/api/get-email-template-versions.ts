// GET /api/template/{id}/versions/ → the saved versions, newest first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailTemplateVersion, ZEnvelope, type TEmailTemplateVersion } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_TEMPLATES_KEY, emailTemplateApiPath } from '../../../lib/email-templates';

export async function getEmailTemplateVersions(
  id: number,
  signal?: AbortSignal,
): Promise<TEmailTemplateVersion[]> {
  const { data } = await protectedClient.get(`${emailTemplateApiPath(id)}versions/`, { signal });
  return ZEnvelope(z.array(ZEmailTemplateVersion)).parse(data).result;
}

export function emailTemplateVersionsQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...EMAIL_TEMPLATES_KEY, 'versions', id],
    queryFn: ({ signal }) => getEmailTemplateVersions(id, signal),
  });
}

export function useEmailTemplateVersions(id: number | null) {
  return useQuery({ ...emailTemplateVersionsQueryOptions(id ?? 0), enabled: id !== null });
}
