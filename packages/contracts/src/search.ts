// The inbox's search (next-api.md "Team inbox"): GET /api/msg/search/?q=&page= over customer
// names, emails and phones, message text and notes, with the conversation list's filters.
import { z } from 'zod';
import {
  ZConversation,
  ZConversationFilter,
  ZMessageType,
  ZPageQuery,
  ZSearchText,
  ZSenderType,
} from './conversations';

export const ZSearchQuery = ZConversationFilter.extend({ ...ZPageQuery.shape, q: ZSearchText }).strict();
export type TSearchQuery = z.infer<typeof ZSearchQuery>;

/** The matching message (absent when the customer's name, email or phone matched). */
export const ZSearchMessage = z.object({
  id: z.union([z.number().int(), z.string()]),
  content: z.string(),
  created_at: z.string(),
  message_type: ZMessageType,
  sender_type: ZSenderType,
});
export type TSearchMessage = z.infer<typeof ZSearchMessage>;

export const ZSearchResult = z.object({
  conversation: ZConversation,
  message: ZSearchMessage.nullable(),
  /** The matching text, HTML-escaped, the matches wrapped in <mark>…</mark>. */
  highlight: z.string(),
});
export type TSearchResult = z.infer<typeof ZSearchResult>;

export const ZSearchPage = z.object({
  count: z.number().int(),
  next: z.number().int().nullable(),
  previous: z.number().int().nullable(),
  results: z.array(ZSearchResult),
});
export type TSearchPage = z.infer<typeof ZSearchPage>;
