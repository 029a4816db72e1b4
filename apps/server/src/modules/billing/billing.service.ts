// Quotas (engage.md §8): a send is counted against its business's allowance for the channel and
// billing period when it is queued (in the send spine's transaction, atomically: concurrent sends
// never overshoot), given back when it fails before its provider accepted it, and counted as used
// when the provider accepts it. With billing on (CHARGEBEE_SITE), a business whose subscription
// does not allow sending, or whose allowance is used up, is refused with 402 and a dialog; with it
// off nothing is refused, usage is still counted (the business's sms_count, email_count and
// whatsapp_count).
import {
  BILLED_CHANNELS,
  BILLING_DIALOGS,
  SENDING_STATUSES,
  type TBilledChannel,
  type TBillingUsage,
  type TSubscriptionStatus,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import type { Queryable } from '../../db/client';
import * as repo from './billing.repository';

export type { BillingAccount, Quotas } from './billing.repository';

const isBilled = (channel: string): channel is TBilledChannel =>
  (BILLED_CHANNELS as readonly string[]).includes(channel);

/** This deployment's switch, written at start from CHARGEBEE_SITE (every process of it agrees). */
export async function recordBillingSwitch(db: Queryable, site: string | undefined): Promise<void> {
  await repo.writeSettings(db, Boolean(site), site ?? null);
}

export type Period = { start: Date; end: Date };

/** The subscription's current term while it lasts; otherwise the calendar month (UTC). */
export function periodOf(account: repo.BillingAccount | null, now = new Date()): Period {
  const start = account?.currentTermStart;
  const end = account?.currentTermEnd;
  if (start && end && start.getTime() <= now.getTime() && end.getTime() > now.getTime())
    return { start, end };
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

export function canSend(status: TSubscriptionStatus): boolean {
  return SENDING_STATUSES.includes(status);
}

function refusedFor(status: TSubscriptionStatus): AppError {
  const dialog =
    status === 'paused'
      ? BILLING_DIALOGS.paused
      : status === 'cancelled'
        ? BILLING_DIALOGS.cancelled
        : BILLING_DIALOGS.inactive;
  return new AppError('payment_required', dialog.title, { dialog });
}

/**
 * Counts `n` sends of a channel against the business's allowance, inside the transaction that
 * queues them; throws 402 (with the dialog) when billing refuses them, which undoes that
 * transaction. The chat widget's own channel (`titan_message`) costs nothing and is not counted.
 */
export async function reserveSends(
  tx: Queryable,
  businessId: number,
  channel: string,
  n: number,
): Promise<void> {
  if (n <= 0 || !isBilled(channel)) return;
  const { enabled, account } = await repo.findPolicy(tx, businessId);
  const status = account?.status ?? 'inactive';
  if (enabled && !canSend(status)) throw refusedFor(status);
  const period = periodOf(account);
  const quota = enabled ? (account?.quotas[channel] ?? null) : null;
  const ok = await repo.reserve(tx, { businessId, channel, periodStart: period.start }, n, quota);
  if (!ok) {
    const dialog = BILLING_DIALOGS.quota(channel, quota ?? 0, period.end.toISOString());
    throw new AppError('payment_required', dialog.title, { dialog });
  }
}

/**
 * Before a bulk send is accepted (a broadcast to a list): 402 when the subscription does not allow
 * sending, or when the plan has less left this period than the `n` sends it may take. The sends
 * themselves are still counted one chunk at a time as they are queued.
 */
export async function assertRoomFor(
  db: Queryable,
  businessId: number,
  channel: string,
  n: number,
): Promise<void> {
  if (!isBilled(channel)) return;
  const { enabled, account } = await repo.findPolicy(db, businessId);
  if (!enabled) return;
  const status = account?.status ?? 'inactive';
  if (!canSend(status)) throw refusedFor(status);
  const quota = account?.quotas[channel] ?? null;
  if (quota === null) return;
  const period = periodOf(account);
  const row = (await repo.usageOf(db, businessId, period.start)).find((u) => u.channel === channel);
  const remaining = Math.max(0, quota + (row?.extra ?? 0) - (row?.reserved ?? 0));
  if (remaining === 0) {
    const dialog = BILLING_DIALOGS.quota(channel, quota, period.end.toISOString());
    throw new AppError('payment_required', dialog.title, { dialog });
  }
  if (remaining < n) {
    const dialog = BILLING_DIALOGS.listTooLarge(channel, n, remaining);
    throw new AppError('payment_required', dialog.title, { dialog });
  }
}

/** A 402's dialog in one line (what a job that was refused keeps as its error). */
export function refusalOf(err: unknown): string | null {
  if (!(err instanceof AppError) || err.code !== 'payment_required') return null;
  const dialog = (err.result as { dialog?: { title: string; description: string } } | null)?.dialog;
  return dialog ? `${dialog.title}. ${dialog.description}` : err.message;
}

type SendLike = { businessId: number; channel: string; createdAt: Date };

function grouped(sends: SendLike[]): { businessId: number; channel: string; createdAt: Date; n: number }[] {
  const groups = new Map<string, { businessId: number; channel: string; createdAt: Date; n: number }>();
  for (const s of sends) {
    if (!isBilled(s.channel)) continue;
    const key = `${s.businessId}:${s.channel}`;
    const group = groups.get(key);
    if (!group)
      groups.set(key, { businessId: s.businessId, channel: s.channel, createdAt: s.createdAt, n: 1 });
    else {
      group.n++;
      if (s.createdAt < group.createdAt) group.createdAt = s.createdAt;
    }
  }
  return [...groups.values()];
}

/** Gives back the allowance of sends that failed (or were cancelled) before any provider took them. */
export async function releaseSends(db: Queryable, sends: SendLike[]): Promise<void> {
  for (const g of grouped(sends)) await repo.release(db, g.businessId, g.channel, g.createdAt, g.n);
}

/** Counts sends their provider accepted (the business's `<channel>_count` of the period). */
export async function countAccepted(db: Queryable, sends: SendLike[]): Promise<void> {
  for (const g of grouped(sends)) await repo.addAccepted(db, g.businessId, g.channel, g.createdAt, g.n);
}

/** Usage per channel in the current period, with the plan's quotas (null: not limited). */
export async function usageOf(
  db: Queryable,
  businessId: number,
): Promise<{
  enabled: boolean;
  account: repo.BillingAccount | null;
  period: Period;
  usage: TBillingUsage[];
}> {
  const { enabled, account } = await repo.findPolicy(db, businessId);
  const period = periodOf(account);
  const rows = await repo.usageOf(db, businessId, period.start);
  const usage = BILLED_CHANNELS.map((channel) => {
    const row = rows.find((r) => r.channel === channel);
    const quota = enabled ? (account?.quotas[channel] ?? null) : null;
    const reserved = row?.reserved ?? 0;
    const extra = row?.extra ?? 0;
    return {
      channel,
      used: row?.accepted ?? 0,
      reserved,
      quota,
      extra,
      remaining: quota === null ? null : Math.max(0, quota + extra - reserved),
    };
  });
  return { enabled, account, period, usage };
}

/** The business's `sms_count`, `email_count`, `whatsapp_count`: sends accepted this period. */
export async function periodCounts(
  db: Queryable,
  businessId: number,
): Promise<{ sms_count: number; email_count: number; whatsapp_count: number }> {
  const { usage } = await usageOf(db, businessId);
  const used = (channel: TBilledChannel) => usage.find((u) => u.channel === channel)?.used ?? 0;
  return { sms_count: used('sms'), email_count: used('email'), whatsapp_count: used('whatsapp') };
}
