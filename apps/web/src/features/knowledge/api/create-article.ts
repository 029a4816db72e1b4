// POST /api/kb/articles/: a new article.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZKbArticle, type TKbArticle, type TKbArticleRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { KB_ARTICLES_PATH, useInvalidateKb } from './get-articles';

export function useCreateArticle() {
  const invalidate = useInvalidateKb();
  return useMutation({
    mutationFn: async (body: TKbArticleRequest): Promise<TKbArticle> => {
      const { data } = await protectedClient.post(KB_ARTICLES_PATH, body);
      return ZEnvelope(ZKbArticle).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
