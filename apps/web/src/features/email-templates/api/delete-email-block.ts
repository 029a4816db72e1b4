// DELETE /api/template/blocks/{id}/: templates that used the block keep their copy of its MJML.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_BLOCKS_API_PATH, EMAIL_BLOCKS_KEY } from './get-email-blocks';

export async function deleteEmailBlock(id: number): Promise<void> {
  await protectedClient.delete(`${EMAIL_BLOCKS_API_PATH}${id}/`);
}

export function useDeleteEmailBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEmailBlock,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EMAIL_BLOCKS_KEY }),
  });
}
