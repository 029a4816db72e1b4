// POST /api/ai/summarize/ {conversation_id} → the conversation summed up for staff, with its sources and run.
import { useMutation } from '@tanstack/react-query';

import { askAboutConversation } from './suggest-reply';

export const SUMMARIZE_PATH = '/api/ai/summarize/';

export const useSummarize = () =>
  useMutation({
    mutationFn: (conversationId: number) => askAboutConversation(SUMMARIZE_PATH, conversationId),
  });
