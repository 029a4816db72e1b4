// GET /api/template/ → the business's email templates (no source), last saved first. Shared: the
// templates screen lists them, an agent's editor offers them and its run log names them.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailTemplateSummary, ZEnvelope, type TEmailTemplateSummary } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export const EMAIL_TEMPLATES_API_PATH = '/api/template/';

/** Every email template query of the business starts with this key. */
export const EMAIL_TEMPLATES_KEY = [BUSINESS_SCOPE, 'email-templates'] as const;
export const EMAIL_TEMPLATE_LIST_KEY = [...EMAIL_TEMPLATES_KEY, 'list'] as const;

export function emailTemplateApiPath(id: number): string {
  return `${EMAIL_TEMPLATES_API_PATH}${id}/`;
}

export async function getEmailTemplates(signal?: AbortSignal): Promise<TEmailTemplateSummary[]> {
  const { data } = await protectedClient.get(EMAIL_TEMPLATES_API_PATH, { signal });
  return ZEnvelope(z.array(ZEmailTemplateSummary)).parse(data).result;
}

export function emailTemplatesQueryOptions() {
  return queryOptions({
    queryKey: EMAIL_TEMPLATE_LIST_KEY,
    queryFn: ({ signal }) => getEmailTemplates(signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useEmailTemplates() {
  return useQuery(emailTemplatesQueryOptions());
}
