// POST /api/ai/suggest-reply/ {conversation_id} → a reply for staff to read or edit (a suggestion is
// never sent by itself), with its sources and run. The copilot's timeout, and the one call shape
// summarize.ts shares.
import { useMutation } from '@tanstack/react-query';
import { ZAiCopilotAnswer, ZEnvelope, type TAiCopilotAnswer } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const SUGGEST_REPLY_PATH = '/api/ai/suggest-reply/';
/** A model may take a while to answer. */
export const COPILOT_TIMEOUT_MS = 90_000;

/** A copilot call about one conversation. */
export async function askAboutConversation(path: string, conversationId: number): Promise<TAiCopilotAnswer> {
  const { data } = await protectedClient.post(
    path,
    { conversation_id: conversationId },
    { timeout: COPILOT_TIMEOUT_MS },
  );
  return ZEnvelope(ZAiCopilotAnswer).parse(data).result;
}

export const useSuggestReply = () =>
  useMutation({
    mutationFn: (conversationId: number) => askAboutConversation(SUGGEST_REPLY_PATH, conversationId),
  });
