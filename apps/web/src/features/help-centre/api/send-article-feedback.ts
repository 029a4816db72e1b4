// POST /api/public/kb/{business_slug}/articles/{id}/feedback/ (no session): "was this helpful?".
import { useMutation } from '@tanstack/react-query';

import { publicClient } from '../../../lib/api-client';
import { helpCentreApiPath } from './get-help-centre';

export function useArticleFeedback(slug: string, id: number) {
  return useMutation({
    mutationFn: async (helpful: boolean) => {
      await publicClient.post(`${helpCentreApiPath(slug)}articles/${id}/feedback/`, { helpful });
    },
  });
}
