// The /engage dashboard's figures (engage.md §7): conversations (opened, unanswered, median first
// response), sends per channel and their outcomes, agents' deliveries and runs, over a date range,
// with one row per day in the business's time zone (zeros included). Each send
// status counts as SEND_OUTCOME_STATUSES says — the definition the event logs' `outcome` filter
// and the email metrics use.
import {
  EMAIL_METRICS_DEFAULT_DAYS,
  EMAIL_METRICS_MAX_DAYS,
  EMAIL_METRICS_ERRORS,
  localDates,
  SEND_CHANNELS,
  sendOutcome,
  type TEngageMetrics,
  type TSendOutcomes,
} from '@titan/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { conversationMetrics, serviceLevelMetrics } from '../conversations';
import { sendCountsByDay } from '../sends';
import { businessTimeZone } from '../business';
import { agentRunCounts } from '../agents';

const DAY_MS = 86_400_000;

const empty = (): TSendOutcomes => ({ total: 0, pending: 0, sent: 0, delivered: 0, failed: 0, not_sent: 0 });

export async function engageMetrics(
  db: Db,
  businessId: number,
  query: { created_at__gte?: Date; created_at__lte?: Date },
  now = new Date(),
): Promise<TEngageMetrics> {
  const to = query.created_at__lte ?? now;
  const from = query.created_at__gte ?? new Date(to.getTime() - EMAIL_METRICS_DEFAULT_DAYS * DAY_MS);
  if (to < from) throw AppError.fields({ created_at__lte: [EMAIL_METRICS_ERRORS.order] });
  if (to.getTime() - from.getTime() > EMAIL_METRICS_MAX_DAYS * DAY_MS)
    throw AppError.fields({ created_at__gte: [EMAIL_METRICS_ERRORS.tooLong] });
  const range = { from, to };
  // Days as the business counts them: in its time zone.
  const timeZone = await businessTimeZone(db, businessId);
  const [convo, sendRows, runs, team] = await Promise.all([
    conversationMetrics(db, businessId, range, timeZone),
    sendCountsByDay(db, businessId, range, timeZone),
    agentRunCounts(db, businessId, range),
    serviceLevelMetrics(db, businessId, range),
  ]);

  const series = new Map<string, TEngageMetrics['series'][number]>();
  for (const date of localDates(from, to, timeZone)) {
    series.set(date, {
      date,
      conversations_opened: 0,
      conversations_unanswered: 0,
      email: 0,
      sms: 0,
      whatsapp: 0,
      titan_message: 0,
    });
  }
  for (const d of convo.days) {
    const row = series.get(d.date);
    if (row) {
      row.conversations_opened = d.opened;
      row.conversations_unanswered = d.unanswered;
    }
  }
  const channels = new Map(SEND_CHANNELS.map((c) => [c, empty()]));
  const deliveries = empty();
  for (const r of sendRows) {
    const bucket = sendOutcome(r.channel, r.status);
    const c = channels.get(r.channel)!;
    c.total += r.n;
    c[bucket] += r.n;
    if (r.agent) {
      deliveries.total += r.n;
      deliveries[bucket] += r.n;
    }
    const row = series.get(r.date);
    if (row) row[r.channel] += r.n;
  }
  const opened = convo.days.reduce((n, d) => n + d.opened, 0);
  const unanswered = convo.days.reduce((n, d) => n + d.unanswered, 0);
  return {
    created_at__gte: from.toISOString(),
    created_at__lte: to.toISOString(),
    conversations: {
      opened,
      unanswered,
      answered: convo.answered,
      median_first_response_seconds: convo.medianFirstResponseSeconds,
    },
    sends: { channels: SEND_CHANNELS.map((channel) => ({ channel, ...channels.get(channel)! })) },
    agents: { deliveries, runs },
    team,
    series: [...series.values()],
  };
}
