// DELETE /api/template/{id}/ (engage.write): the template and every version.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_TEMPLATE_LIST_KEY, emailTemplateApiPath } from '../../../lib/email-templates';

export async function deleteEmailTemplate(id: number): Promise<void> {
  await protectedClient.delete(emailTemplateApiPath(id));
}

export function useDeleteEmailTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmailTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EMAIL_TEMPLATE_LIST_KEY }),
  });
}
