// Retention of what anyone on the public side can make Titan store: browser analytics events
// (ANALYTICS_EVENTS_RETENTION_DAYS) and chat files nobody sent in a message
// (VISITOR_UPLOADS_RETENTION_DAYS), deleted hourly in short batches like whatsapp.retention.ts.
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Storage } from '../../platform/storage';
import { deleteOldEvents } from '../analytics';
import { deleteUnsentChatMedia, pruneVisitorUploadDays } from '../files';

export const PUBLIC_RETENTION_QUEUE = 'public.retention';
/** Hourly (UTC), at a minute of its own (:17 change log, :23 rate limits, :43 WhatsApp). */
export const PUBLIC_RETENTION_CRON = '31 * * * *';
export const PUBLIC_RETENTION_BATCH = 1_000;
/** A run starts no batch after this long (jobs expire after 15 minutes); the next run goes on. */
export const PUBLIC_RETENTION_BUDGET_MS = 10 * 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;

export type PublicRetentionDeps = {
  db: Db;
  storage: Storage;
  config: Pick<Config, 'ANALYTICS_EVENTS_RETENTION_DAYS' | 'VISITOR_UPLOADS_RETENTION_DAYS'>;
};

export type PublicRetentionOptions = { batchSize?: number; budgetMs?: number; now?: Date };

export type PublicRetentionResult = { events: number; files: number; storageFailures: string[] };

/** Deletes batch after batch until a batch is not full or the budget is spent; cutoffs fixed at start. */
export async function prunePublicData(
  deps: PublicRetentionDeps,
  options: PublicRetentionOptions = {},
): Promise<PublicRetentionResult> {
  const batchSize = options.batchSize ?? PUBLIC_RETENTION_BATCH;
  const now = options.now ?? new Date();
  const deadline = Date.now() + (options.budgetMs ?? PUBLIC_RETENTION_BUDGET_MS);
  const eventsCutoff = new Date(now.getTime() - deps.config.ANALYTICS_EVENTS_RETENTION_DAYS * DAY_MS);
  const filesCutoff = new Date(now.getTime() - deps.config.VISITOR_UPLOADS_RETENTION_DAYS * DAY_MS);
  const result: PublicRetentionResult = { events: 0, files: 0, storageFailures: [] };
  for (;;) {
    const deleted = await deleteOldEvents(deps.db, eventsCutoff, batchSize);
    result.events += deleted;
    if (deleted < batchSize || Date.now() >= deadline) break;
  }
  for (;;) {
    const { deleted, failed } = await deleteUnsentChatMedia(deps, filesCutoff, batchSize);
    result.files += deleted;
    result.storageFailures.push(...failed);
    if (deleted < batchSize || Date.now() >= deadline) break;
  }
  // Allowance days are only read for today; yesterday's is kept for support questions.
  await pruneVisitorUploadDays(deps.db, new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10));
  return result;
}

/** The scheduled job's work. */
export async function runPublicRetention(
  deps: PublicRetentionDeps,
  logger: Logger,
): Promise<PublicRetentionResult> {
  const result = await prunePublicData(deps);
  if (result.events > 0 || result.files > 0) {
    logger.info(
      {
        analytics_events: result.events,
        chat_files: result.files,
        analytics_retention_days: deps.config.ANALYTICS_EVENTS_RETENTION_DAYS,
        uploads_retention_days: deps.config.VISITOR_UPLOADS_RETENTION_DAYS,
      },
      'old analytics events and unsent chat files deleted',
    );
  }
  if (result.storageFailures.length > 0) {
    // Their rows are gone, so nothing links to them any more; only the bytes are left over.
    logger.warn({ keys: result.storageFailures }, 'could not delete some chat files from storage');
  }
  return result;
}
