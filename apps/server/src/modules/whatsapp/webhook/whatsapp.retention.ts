// Retention of the WhatsApp webhook tables. Every signed delivery is kept in
// whatsapp_webhook_events (it is also the processing queue) and every status in the spine's
// send_events; an hourly job deletes deliveries processed (or given up) more than
// WHATSAPP_EVENTS_RETENTION_DAYS ago, with the statuses only they knew of, in short batches so a
// large backlog never holds long locks. Statuses of recorded sends are their timeline: kept.
import type { Logger } from 'pino';
import type { Db } from '../../../db/client';
import * as sendsRepo from '../../sends';
import * as webhookRepo from './whatsapp.webhook.repository';

export const RETENTION_QUEUE = 'whatsapp.retention';
/** Hourly (UTC), at a minute of its own (the change-log pruning runs at :17). */
export const RETENTION_CRON = '43 * * * *';
/** Deliveries deleted per statement. */
export const RETENTION_BATCH = 5_000;
/** A run starts no batch after this long (the job expires after 15 minutes); the next run goes on. */
export const RETENTION_BUDGET_MS = 10 * 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;

export type RetentionOptions = {
  retentionDays: number;
  batchSize?: number;
  budgetMs?: number;
  now?: Date;
};

export type RetentionResult = { events: number; statuses: number; batches: number };

/**
 * Deletes, batch after batch, the deliveries (and orphaned statuses) older than the cutoff, which
 * is fixed when the run starts; stops at the first batch that is not full or once the budget is
 * spent. Each batch is its own statement and transaction.
 */
export async function pruneWebhookEvents(db: Db, options: RetentionOptions): Promise<RetentionResult> {
  const batchSize = options.batchSize ?? RETENTION_BATCH;
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.retentionDays * DAY_MS);
  const deadline = Date.now() + (options.budgetMs ?? RETENTION_BUDGET_MS);
  const total: RetentionResult = { events: 0, statuses: 0, batches: 0 };
  for (;;) {
    // One transaction per batch: the deliveries go with the statuses only they knew of.
    const { events, statuses } = await db.transaction(async (tx) => {
      const batch = await webhookRepo.deleteExpiredWebhookEvents(tx, cutoff, batchSize);
      return {
        events: batch.events,
        statuses: await sendsRepo.deleteOrphanEvents(tx, 'whatsapp', batch.reported),
      };
    });
    total.events += events;
    total.statuses += statuses;
    total.batches++;
    if (events < batchSize || Date.now() >= deadline) return total;
  }
}

/** The scheduled job's work. */
export async function runRetention(db: Db, retentionDays: number, logger: Logger): Promise<RetentionResult> {
  const result = await pruneWebhookEvents(db, { retentionDays });
  if (result.events > 0) {
    logger.info(
      {
        deliveries: result.events,
        statuses: result.statuses,
        batches: result.batches,
        retention_days: retentionDays,
      },
      'old WhatsApp webhook deliveries deleted',
    );
  }
  return result;
}
