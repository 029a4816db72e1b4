// POST /api/template/ (create) and PUT /api/template/{id}/ (save a new version, or restore one with
// {restore_version}) → the template. 400 answers name the field and, for the source, the line.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  ZEmailTemplate,
  ZEnvelope,
  type TCreateEmailTemplateRequest,
  type TEmailTemplate,
  type TUpdateEmailTemplateRequest,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { emailTemplateQueryOptions } from './get-email-template';
import {
  EMAIL_TEMPLATE_LIST_KEY,
  EMAIL_TEMPLATES_API_PATH,
  emailTemplateApiPath,
} from '../../../lib/email-templates';
import { emailTemplateVersionsQueryOptions } from './get-email-template-versions';

export async function createEmailTemplate(body: TCreateEmailTemplateRequest): Promise<TEmailTemplate> {
  const { data } = await protectedClient.post(EMAIL_TEMPLATES_API_PATH, body);
  return ZEnvelope(ZEmailTemplate).parse(data).result;
}

export async function updateEmailTemplate({
  id,
  ...body
}: TUpdateEmailTemplateRequest & { id: number }): Promise<TEmailTemplate> {
  const { data } = await protectedClient.put(emailTemplateApiPath(id), body);
  return ZEnvelope(ZEmailTemplate).parse(data).result;
}

function remember(queryClient: QueryClient, saved: TEmailTemplate) {
  queryClient.setQueryData(emailTemplateQueryOptions(saved.id).queryKey, saved);
  void queryClient.invalidateQueries({ queryKey: EMAIL_TEMPLATE_LIST_KEY });
  void queryClient.invalidateQueries({ queryKey: emailTemplateVersionsQueryOptions(saved.id).queryKey });
}

export function useCreateEmailTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEmailTemplate,
    onSuccess: (saved) => remember(queryClient, saved),
  });
}

export function useUpdateEmailTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEmailTemplate,
    onSuccess: (saved) => remember(queryClient, saved),
  });
}
