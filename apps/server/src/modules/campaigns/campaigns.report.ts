// A campaign's results: read from its broadcasts' sends and their events (the send log's rows), so
// the figures equal what the log shows — totals, per variant, per link, per hour — and each
// recipient with their send.
import type { TCampaignRecipient, TCampaignReport } from '@titan/contracts';
import type { Queryable } from '../../db/client';
import { csvLine } from '../../platform/csv';
import { broadcastSendKey } from '../broadcasts';
import { findCustomersByIds } from '../directory';
import {
  campaignLinks,
  campaignSendsOf,
  campaignSeries,
  campaignTotals,
  type CampaignSendTotals,
} from '../sends';
import * as repo from './campaigns.repository';
import { addressOf, mustFind } from './campaigns.service';

const zero = (): CampaignSendTotals => ({
  sent: 0,
  delivered: 0,
  opened: 0,
  opened_machine: 0,
  clicked: 0,
  bounced: 0,
  complained: 0,
  unsubscribed: 0,
  replied: 0,
  failed: 0,
});

function addInto(into: CampaignSendTotals, t: CampaignSendTotals) {
  for (const k of Object.keys(into) as (keyof CampaignSendTotals)[]) into[k] += t[k];
}

export async function campaignReport(
  db: Queryable,
  businessId: number,
  id: string,
): Promise<TCampaignReport> {
  const row = await mustFind(db, businessId, id);
  const ids = row.broadcasts.map((b) => b.id);
  const perBroadcast = await campaignTotals(db, businessId, row.channel, ids);
  const totals = zero();
  const variants = new Map<number, CampaignSendTotals>();
  for (const t of perBroadcast) {
    addInto(totals, t);
    const v = row.broadcasts.find((b) => b.id === t.cause_id)?.variant ?? 0;
    const into = variants.get(v) ?? zero();
    addInto(into, t);
    variants.set(v, into);
  }
  const counts = await repo.recipientCounts(db, id);
  const byVariant = await repo.recordedByVariant(db, id);
  const variantCount = row.ab ? row.ab.variants.length : 1;
  return {
    totals: { recipients: counts.total, ...totals },
    variants: Array.from({ length: variantCount }, (_, index) => ({
      index,
      winner: row.winner === index,
      recipients: byVariant.get(index) ?? 0,
      ...(variants.get(index) ?? zero()),
    })),
    links: await campaignLinks(db, businessId, ids),
    series: await campaignSeries(db, businessId, ids),
  };
}

async function recipientRows(
  db: Queryable,
  businessId: number,
  channel: 'email' | 'sms' | 'whatsapp',
  rows: repo.RecipientRow[],
): Promise<TCampaignRecipient[]> {
  const customers = new Map(
    (
      await findCustomersByIds(
        db,
        businessId,
        rows.map((r) => r.customerId),
      )
    ).map((c) => [c.id, c]),
  );
  const keys = rows.flatMap((r) => (r.broadcastId ? [broadcastSendKey(r.broadcastId, r.customerId)] : []));
  const sendsByKey = new Map(
    (await campaignSendsOf(db, businessId, keys)).map((s) => [s.idempotency_key, s]),
  );
  return rows.map((r) => {
    const c = customers.get(r.customerId);
    const send = r.broadcastId ? sendsByKey.get(broadcastSendKey(r.broadcastId, r.customerId)) : undefined;
    return {
      customer_id: r.customerId,
      name: c?.name ?? null,
      address: send?.recipient ?? (c ? addressOf(channel, c) : null),
      variant: r.variant,
      state: r.state,
      due_at: r.dueAt.toISOString(),
      send_id: send?.id ?? null,
      send_status: send?.status ?? null,
      skip_reason: r.skipReason ?? (r.state === 'recorded' && !send ? 'passed over by the channel' : null),
    };
  });
}

export async function campaignRecipients(
  db: Queryable,
  businessId: number,
  id: string,
  query: { page: number; page_size: number },
) {
  const row = await mustFind(db, businessId, id);
  const count = (await repo.recipientCounts(db, id)).total;
  const rows = await repo.recipientsPage(db, id, query.page_size, (query.page - 1) * query.page_size);
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: await recipientRows(db, businessId, row.channel, rows),
  };
}

/** Every recipient as CSV, 1,000 at a time (found, or 404, before the stream starts). */
export async function* exportRecipients(
  db: Queryable,
  businessId: number,
  id: string,
): AsyncGenerator<string> {
  const row = await mustFind(db, businessId, id);
  yield csvLine([
    'customer_id',
    'name',
    'address',
    'variant',
    'state',
    'due_at',
    'send_id',
    'send_status',
    'skip_reason',
  ]);
  let after = 0;
  for (;;) {
    const page = await repo.recipientsAfter(db, id, after, 1000);
    if (page.length === 0) return;
    for (const r of await recipientRows(db, businessId, row.channel, page))
      yield csvLine([
        r.customer_id,
        r.name,
        r.address,
        r.variant,
        r.state,
        r.due_at,
        r.send_id,
        r.send_status,
        r.skip_reason,
      ]);
    after = page[page.length - 1]!.customerId;
  }
}
