// PUT /api/kb/categories/{id}/: a category changed.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZKbCategory, type TKbCategory, type TKbCategoryUpdate } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { useInvalidateKb } from './get-articles';
import { KB_CATEGORIES_PATH } from './get-categories';

export function useUpdateCategory() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async ({ id, ...body }: TKbCategoryUpdate & { id: number }): Promise<TKbCategory> => {
      const { data } = await protectedClient.put(`${KB_CATEGORIES_PATH}${id}/`, body);
      return ZEnvelope(ZKbCategory).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
