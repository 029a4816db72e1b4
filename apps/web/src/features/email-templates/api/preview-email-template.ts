// POST /api/template/{id}/preview/ (or /api/template/preview/ before the first save) with the
// editor's draft and sample variables or a customer → {subject, html, text, errors}. A query, so the
// last preview stays on screen while the next (debounced) one renders.
import { keepPreviousData, queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import {
  ZEmailTemplatePreview,
  ZEnvelope,
  type TEmailTemplateDraft,
  type TEmailTemplatePreview,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import {
  EMAIL_TEMPLATES_API_PATH,
  EMAIL_TEMPLATES_KEY,
  emailTemplateApiPath,
} from '../../../lib/email-templates';

export type TPreviewInput = {
  templateId: number | null;
  draft: TEmailTemplateDraft;
  variables: Record<string, unknown>;
  customerId: number | null;
};

export async function previewEmailTemplate(
  { templateId, draft, variables, customerId }: TPreviewInput,
  signal?: AbortSignal,
): Promise<TEmailTemplatePreview> {
  const url =
    templateId === null
      ? `${EMAIL_TEMPLATES_API_PATH}preview/`
      : `${emailTemplateApiPath(templateId)}preview/`;
  const { data } = await protectedClient.post(
    url,
    { draft, variables, ...(customerId !== null ? { customer_id: customerId } : {}) },
    { signal },
  );
  return ZEnvelope(ZEmailTemplatePreview).parse(data).result;
}

/** No draft with content yet: no preview asked (skipToken); the last preview stays while the next renders. */
export function emailTemplatePreviewQueryOptions(input: TPreviewInput | null) {
  return queryOptions({
    queryKey: [...EMAIL_TEMPLATES_KEY, 'preview', input],
    queryFn:
      input !== null && input.draft.content.trim() !== ''
        ? ({ signal }) => previewEmailTemplate(input, signal)
        : skipToken,
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
}

export function useEmailTemplatePreview(input: TPreviewInput | null) {
  return useQuery(emailTemplatePreviewQueryOptions(input));
}
