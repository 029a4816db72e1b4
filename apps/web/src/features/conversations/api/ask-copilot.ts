// POST /api/ai/ask/: a staff question answered from the knowledge base and the conversation, with
// its sources.
import { useMutation } from '@tanstack/react-query';
import { ZAiAskAnswer, ZEnvelope, type TAiAskAnswer, type TAiAskRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { COPILOT_TIMEOUT_MS } from './suggest-reply';

export const ASK_PATH = '/api/ai/ask/';

export const useAsk = () =>
  useMutation({
    mutationFn: async (body: TAiAskRequest): Promise<TAiAskAnswer> => {
      const { data } = await protectedClient.post(ASK_PATH, body, { timeout: COPILOT_TIMEOUT_MS });
      return ZEnvelope(ZAiAskAnswer).parse(data).result;
    },
  });
