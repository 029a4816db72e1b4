// A broadcast: one send per customer of a list, on one channel (engage.md §1, cause `broadcast`).
// Answered by the channel's bulk endpoint (202) and readable while it runs.
import { z } from 'zod';

export const BROADCAST_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const ZBroadcastStatus = z.enum(BROADCAST_STATUSES);

export const ZBroadcast = z.object({
  /** The batch id. */
  id: z.string(),
  channel: z.string(),
  list_id: z.number().int().nullable(),
  status: ZBroadcastStatus,
  /** Customers in the list when the broadcast started. */
  total: z.number().int(),
  /** Sends recorded so far (each then goes its own way: see `sends`). */
  queued: z.number().int(),
  /** Customers passed over, with the reasons counted (no address, …). */
  skipped: z.number().int(),
  skipped_reasons: z.record(z.string(), z.number().int()),
  /** The broadcast's sends by status (queued, sent, delivered, failed, suppressed, …). */
  sends: z.record(z.string(), z.number().int()),
  error: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type TBroadcast = z.infer<typeof ZBroadcast>;

export const ZBroadcastParams = z.object({ id: z.uuid('Not a valid batch id.') });
