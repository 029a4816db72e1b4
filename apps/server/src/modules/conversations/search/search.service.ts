// The inbox's search: GET /api/msg/search/ (matches with their conversation and a highlight) and
// `q=` on the conversation list (the conversations with a match). Notes are searched: both routes
// are staff routes (inbox.use), and what a visitor reads never passes through here.
import type {
  TConversation,
  TConversationFilter,
  TSearchPage,
  TSearchQuery,
  TSearchResult,
} from '@titan/contracts';
import type { Db } from '../../../db/client';
import { escapeHtml } from '../../../platform/html';
import type { InboxScope } from '../conversations.repository';
import * as repo from '../conversations.repository';
import { resolveMe, toConversation } from '../conversation-view';
import {
  MARK_END,
  MARK_START,
  runSearch,
  searchConversationsStatement,
  searchStatement,
  type SearchRow,
} from './search.repository';

/** ts_headline's text made safe for HTML: everything escaped, then its marks turned into <mark>. */
export function headlineHtml(marked: string): string {
  return escapeHtml(marked).replaceAll(MARK_START, '<mark>').replaceAll(MARK_END, '</mark>');
}

/** A customer who matched: the first of name, email, phone holding the text, the text marked. */
export function customerHighlight(
  initiator: { name: string | null; email: string | null; phone: string | null },
  q: string,
): string {
  const needle = q.trim().toLowerCase();
  const digits = needle.replace(/\D/g, '');
  for (const field of [initiator.name, initiator.email, initiator.phone]) {
    if (!field) continue;
    let at = field.toLowerCase().indexOf(needle);
    let length = needle.length;
    if (at < 0 && digits.length >= 3 && field.includes(digits)) {
      at = field.indexOf(digits);
      length = digits.length;
    }
    if (at >= 0)
      return `${escapeHtml(field.slice(0, at))}<mark>${escapeHtml(field.slice(at, at + length))}</mark>${escapeHtml(field.slice(at + length))}`;
  }
  return escapeHtml(initiator.name ?? initiator.email ?? '');
}

async function conversationsById(db: Db, scope: InboxScope, ids: number[]) {
  const rows = await repo.findConversationsByIds(db, scope, [...new Set(ids)]);
  return new Map(rows.map((r) => [r.conversation.id, r]));
}

const pageLinks = (count: number, page: number, size: number) => ({
  next: page * size < count ? page + 1 : null,
  previous: page > 1 ? page - 1 : null,
});

export async function search(
  db: Db,
  scope: InboxScope,
  query: TSearchQuery,
  viewerId: number | null,
): Promise<TSearchPage> {
  const { q, page, page_size, ...asked } = query;
  const filter: TConversationFilter = resolveMe(asked, viewerId);
  const rows = await runSearch<SearchRow>(
    db,
    searchStatement(scope, filter, q, page_size, (page - 1) * page_size),
  );
  const count = Number(rows[0]?.total ?? 0);
  const results: TSearchResult[] = [];
  // Each match carries its conversation as the API writes it (built in the same statement).
  for (const hit of rows) {
    const conversation = hit.conversation;
    if (hit.kind === null || !conversation) continue;
    if (hit.kind === 'c') {
      const customer = { name: hit.customer_name, email: hit.customer_email, phone: hit.customer_phone };
      results.push({ conversation, message: null, highlight: customerHighlight(customer, q) });
      continue;
    }
    results.push({
      conversation,
      message: {
        id: hit.kind === 'm' ? Number(hit.msg_id) : hit.wa_id!,
        content: hit.content ?? '',
        created_at: hit.created_at ?? conversation.created_at,
        message_type: hit.message_type ?? 'text',
        sender_type: hit.sender_type ?? 'customer',
      },
      highlight: headlineHtml(hit.headline ?? ''),
    });
  }
  return { count, ...pageLinks(count, page, page_size), results };
}

/** `q=` on GET /api/msg/conversations/: a page of the conversations a search finds, newest match first. */
export async function searchConversations(
  db: Db,
  scope: InboxScope,
  filter: TConversationFilter,
  q: string,
  page: number,
  pageSize: number,
): Promise<{ count: number; next: number | null; previous: number | null; results: TConversation[] }> {
  const rows = await runSearch<{ total: number; conversation_id: string | number | null }>(
    db,
    searchConversationsStatement(scope, filter, q, pageSize, (page - 1) * pageSize),
  );
  const count = Number(rows[0]?.total ?? 0);
  const ids = rows.filter((r) => r.conversation_id !== null).map((r) => Number(r.conversation_id));
  const byId = await conversationsById(db, scope, ids);
  const results = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toConversation(row)] : [];
  });
  return { count, ...pageLinks(count, page, pageSize), results };
}
