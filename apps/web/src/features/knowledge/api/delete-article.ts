// DELETE /api/kb/articles/{id}/: an article removed.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { KB_ARTICLES_PATH, useInvalidateKb } from './get-articles';

export function useDeleteArticle() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${KB_ARTICLES_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
