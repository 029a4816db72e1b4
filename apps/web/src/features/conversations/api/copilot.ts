// The staff copilot: POST /api/ai/suggest-reply/ and /api/ai/summarize/ {conversation_id} → text for
// staff to read or edit (a suggestion is never sent by itself), with its sources and run; a staff
// reply turned into a draft article (POST /api/ai/article-drafts/) and the Ask box (POST /api/ai/ask/).
import { useMutation } from '@tanstack/react-query';
import {
  ZAiArticleDraft,
  ZAiAskAnswer,
  ZAiCopilotAnswer,
  ZEnvelope,
  type TAiArticleDraft,
  type TAiArticleDraftRequest,
  type TAiAskAnswer,
  type TAiAskRequest,
  type TAiCopilotAnswer,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const SUGGEST_REPLY_PATH = '/api/ai/suggest-reply/';
export const SUMMARIZE_PATH = '/api/ai/summarize/';
/** A model may take a while to answer. */
const COPILOT_TIMEOUT_MS = 90_000;

const ask = async (path: string, conversationId: number): Promise<TAiCopilotAnswer> => {
  const { data } = await protectedClient.post(
    path,
    { conversation_id: conversationId },
    { timeout: COPILOT_TIMEOUT_MS },
  );
  return ZEnvelope(ZAiCopilotAnswer).parse(data).result;
};

export const useSuggestReply = () =>
  useMutation({ mutationFn: (conversationId: number) => ask(SUGGEST_REPLY_PATH, conversationId) });

export const useSummarize = () =>
  useMutation({ mutationFn: (conversationId: number) => ask(SUMMARIZE_PATH, conversationId) });

export const ARTICLE_DRAFTS_PATH = '/api/ai/article-drafts/';
export const ASK_PATH = '/api/ai/ask/';

/** A staff reply turned into a draft help-centre article (never published by itself). */
export const useDraftArticle = () =>
  useMutation({
    mutationFn: async (body: TAiArticleDraftRequest): Promise<TAiArticleDraft> => {
      const { data } = await protectedClient.post(ARTICLE_DRAFTS_PATH, body, { timeout: COPILOT_TIMEOUT_MS });
      return ZEnvelope(ZAiArticleDraft).parse(data).result;
    },
  });

/** A staff question answered from the knowledge base and the conversation, with its sources. */
export const useAsk = () =>
  useMutation({
    mutationFn: async (body: TAiAskRequest): Promise<TAiAskAnswer> => {
      const { data } = await protectedClient.post(ASK_PATH, body, { timeout: COPILOT_TIMEOUT_MS });
      return ZEnvelope(ZAiAskAnswer).parse(data).result;
    },
  });
