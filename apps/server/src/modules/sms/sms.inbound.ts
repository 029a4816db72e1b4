// Inbound texts as staff read them (GET /api/sms/inbound/): newest first, a customer's with
// `customer_id` (the directory shows them on the customer's record).
import type { TSmsInbound, TSmsInboundQuery } from '@titan/contracts';
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

export async function findInbound(deps: Pick<SmsDeps, 'db'>, businessId: number, query: TSmsInboundQuery) {
  const { rows, count } = await repo.listInbound(
    deps.db,
    businessId,
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
