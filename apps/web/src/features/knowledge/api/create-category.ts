// POST /api/kb/categories/: a new category.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZKbCategory, type TKbCategory, type TKbCategoryRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateKb } from './get-articles';
import { KB_CATEGORIES_PATH } from './get-categories';

export function useCreateCategory() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (body: TKbCategoryRequest): Promise<TKbCategory> => {
      const { data } = await protectedClient.post(KB_CATEGORIES_PATH, body);
      return ZEnvelope(ZKbCategory).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
