// DELETE /api/kb/categories/{id}/: a category removed.
import { useMutation } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateKb } from './get-articles';
import { KB_CATEGORIES_PATH } from './get-categories';

export function useDeleteCategory() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${KB_CATEGORIES_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
