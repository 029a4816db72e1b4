// Inbound texts as staff read them (GET /api/sms/inbound/): newest first, a customer's with
// `customer_id` (the directory shows them on the customer's record). Agents read them as they read
// the directory: the texts of a customer they may see (docs/design/inbox.md "Agents in the engage area").
import type { TSmsInbound, TSmsInboundQuery } from '@titan/contracts';
import type { InboxScope } from '../../platform/inbox-scope';
import { findVisitor } from '../directory';
import type { SmsDeps } from './sms.account';
import * as repo from './sms.repository';

function toInbound(row: repo.SmsInboundRow): TSmsInbound {
  return {
    id: row.id,
    customer_id: row.customerId,
    from: row.fromNumber,
    to: row.toNumber,
    body: row.body,
    keyword: row.keyword,
    received_at: row.receivedAt.toISOString(),
  };
}

export async function findInbound(deps: Pick<SmsDeps, 'db'>, scope: InboxScope, query: TSmsInboundQuery) {
  const empty = { count: 0, next: null, previous: null, results: [] as TSmsInbound[] };
  if (scope.groupIds !== null) {
    // An agent: one customer's texts, when the directory shows them that customer (else 404).
    if (query.customer_id === undefined) return empty;
    await findVisitor(deps.db, scope, query.customer_id);
  }
  const { rows, count } = await repo.listInbound(
    deps.db,
    scope.businessId,
    { customerId: query.customer_id },
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: rows.map(toInbound),
  };
}
