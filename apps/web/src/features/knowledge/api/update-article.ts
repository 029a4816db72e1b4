// PUT /api/kb/articles/{id}/: an article changed.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZKbArticle, type TKbArticle, type TKbArticleUpdate } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { KB_ARTICLES_PATH, useInvalidateKb } from './get-articles';

export function useUpdateArticle(id: number) {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (body: TKbArticleUpdate): Promise<TKbArticle> => {
      const { data } = await protectedClient.put(`${KB_ARTICLES_PATH}${id}/`, body);
      return ZEnvelope(ZKbArticle).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
