// The inbox search's statement, for the benchmarks: bench/suites/inbox-search.mjs imports this from
// the built server (dist/conversations-search.js) and runs the very text and values the server
// runs for GET /api/msg/search/, as the raw-SQL floor beside it (no copy that could drift).
import { ZSearchQuery } from '@titan/contracts';
import { SEARCH_SETTINGS, searchStatement, statementText, tsQueryText } from './search.repository';

/** The `set local` statements the search runs in its transaction before its statement. */
export { SEARCH_SETTINGS, tsQueryText };

/**
 * The text and values of the statement `GET /api/msg/search/` runs with these query parameters,
 * for a viewer who sees the whole business (owners, admins, API keys).
 */
export function searchStatementForQuery(
  businessId: number,
  query: Record<string, string>,
): { text: string; values: unknown[] } {
  const { q, page, page_size, ...filter } = ZSearchQuery.parse(query);
  return statementText(
    searchStatement({ businessId, groupIds: null }, filter, q, page_size, (page - 1) * page_size),
  );
}
