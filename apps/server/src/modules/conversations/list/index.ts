// The inbox list engine's API: run a page (the server), or get the statement a request runs (the
// benchmarks import this from the built server, dist/conversations-list.js, instead of a copy).
import { ZConversationListQuery } from '@titan/contracts';
import { listStatement, type ListStatement } from './list.repository';

export {
  conversationJsonOf,
  listConversations,
  listStatement,
  type CountKind,
  type ListStatement,
} from './list.repository';

/**
 * The statement of `GET /api/msg/conversations/` with these query parameters, for a viewer who
 * sees the whole business (owners, admins, API keys).
 */
export function listStatementForQuery(businessId: number, query: Record<string, string>): ListStatement {
  const { page, page_size, ...filter } = ZConversationListQuery.parse(query);
  return listStatement({ businessId, groupIds: null }, filter, page_size, (page - 1) * page_size);
}
