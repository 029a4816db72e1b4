// POST /api/ai/article-drafts/: a staff reply turned into a draft help-centre article (never
// published by itself).
import { useMutation } from '@tanstack/react-query';
import {
  ZAiArticleDraft,
  ZEnvelope,
  type TAiArticleDraft,
  type TAiArticleDraftRequest,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { COPILOT_TIMEOUT_MS } from './suggest-reply';

export const ARTICLE_DRAFTS_PATH = '/api/ai/article-drafts/';

export const useDraftArticle = () =>
  useMutation({
    mutationFn: async (body: TAiArticleDraftRequest): Promise<TAiArticleDraft> => {
      const { data } = await protectedClient.post(ARTICLE_DRAFTS_PATH, body, { timeout: COPILOT_TIMEOUT_MS });
      return ZEnvelope(ZAiArticleDraft).parse(data).result;
    },
  });
