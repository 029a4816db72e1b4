// Suggested agents (engage.md §5): proposals that fit what the business has, each from its own
// numbers (inactive customers, enquiries never answered, recent customers, its lists), with a ready
// draft config. Nothing is proposed that the data does not support.
import type { TAgentChannelConfigInput, TSegmentFilter, TSuggestedAgent } from '@titan/contracts';
import type { Db } from '../../db/client';
import { countUnansweredConversations } from '../conversations';
import { findLists } from '../customer-lists';
import { countSegment } from '../directory';
import { findTemplates } from '../templates';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A customer not seen for this long is inactive. */
export const INACTIVE_DAYS = 60;
/** A customer seen within this many days is recent (review requests). */
export const RECENT_DAYS = 14;

const daysAgo = (now: Date, days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export async function suggestAgents(
  db: Db,
  businessId: number,
  now = new Date(),
): Promise<TSuggestedAgent[]> {
  const inactive: TSegmentFilter = { last_seen_at__lte: daysAgo(now, INACTIVE_DAYS) };
  const recent: TSegmentFilter = { last_seen_at__gte: daysAgo(now, RECENT_DAYS) };
  const [inactiveCount, recentCount, unanswered, lists, templates] = await Promise.all([
    countSegment(db, businessId, inactive),
    countSegment(db, businessId, recent),
    countUnansweredConversations(db, businessId),
    findLists(db, businessId, { page: 1, page_size: 100 }),
    findTemplates(db, businessId),
  ]);
  const newestTemplate = templates[0]?.id;

  /** The channel most of an audience can be reached on, with the newest email template. */
  const channelsFor = async (filter: TSegmentFilter): Promise<TAgentChannelConfigInput[]> => {
    const [withEmail, withPhone] = await Promise.all([
      countSegment(db, businessId, { ...filter, has_email: true }),
      countSegment(db, businessId, { ...filter, has_phone: true }),
    ]);
    if (withPhone > withEmail) return [{ channel: 'sms' }];
    return [{ channel: 'email', ...(newestTemplate ? { template_id: newestTemplate } : {}) }];
  };
  const draft = (
    goal: string,
    instructions: string,
    audience: TSuggestedAgent['config']['audience'],
    channels: TAgentChannelConfigInput[],
  ): TSuggestedAgent['config'] => ({
    instructions,
    goal,
    audience,
    channels,
    tools: [
      { source: 'builtin', name: 'lookup_customer', approval: 'auto' },
      { source: 'builtin', name: 'customer_conversations', approval: 'auto' },
    ],
    limits: { max_sends_per_run: 100, per_recipient_per_week: 1, max_steps: 10, max_tokens: 4000 },
    send_mode: 'review',
    consent_mode: 'subscribed',
    quiet_hours: { start: '21:00', end: '08:00' },
  });

  const out: TSuggestedAgent[] = [];
  if (unanswered.customers > 0) {
    const audience = { list_ids: [], segment: {} };
    out.push({
      key: 'unanswered_follow_up',
      name: 'Unanswered enquiry follow-up',
      description: 'Follows up with customers whose enquiry nobody answered yet.',
      reason: `${plural(unanswered.conversations, 'open conversation was', 'open conversations were')} never answered, from ${plural(unanswered.customers, 'customer', 'customers')}.`,
      audience_count: unanswered.customers,
      config: draft(
        'Answer every customer whose enquiry was left without a reply.',
        'Look up the customer and their conversations. Message only customers whose latest open conversation has no reply from us. Apologise for the wait, answer what they asked if you can, and invite them to reply.',
        audience,
        await channelsFor({}),
      ),
    });
  }
  if (inactiveCount > 0) {
    out.push({
      key: 'win_back',
      name: 'Win back inactive customers',
      description: `Reaches out to customers not seen for ${INACTIVE_DAYS} days or more.`,
      reason: `${plural(inactiveCount, 'customer has', 'customers have')} not been seen for ${INACTIVE_DAYS} days or more.`,
      audience_count: inactiveCount,
      config: draft(
        'Bring inactive customers back.',
        'Write a short, friendly message reminding the customer what they liked about us and what is new. Do not message anyone who opted out or was contacted this week.',
        { list_ids: [], segment: inactive },
        await channelsFor(inactive),
      ),
    });
  }
  if (recentCount > 0) {
    out.push({
      key: 'review_request',
      name: 'Review request',
      description: `Asks customers seen in the last ${RECENT_DAYS} days for a review.`,
      reason: `${plural(recentCount, 'customer was', 'customers were')} seen in the last ${RECENT_DAYS} days.`,
      audience_count: recentCount,
      config: draft(
        'Collect reviews from recent customers.',
        'Thank the customer for their recent visit and ask for a short review. Skip customers whose latest conversation is still open or unhappy.',
        { list_ids: [], segment: recent },
        await channelsFor(recent),
      ),
    });
  }
  const largest = lists.results
    .filter((l) => l.member_count > 0)
    .sort((a, b) => b.member_count - a.member_count)[0];
  if (largest) {
    out.push({
      key: 'reminder',
      name: `Reminder for ${largest.name}`,
      description: `Sends the customers of the list “${largest.name}” a timely reminder.`,
      reason: `The list “${largest.name}” has ${plural(largest.member_count, 'customer', 'customers')}.`,
      audience_count: largest.member_count,
      config: draft(
        `Remind the customers of “${largest.name}” of what is coming up.`,
        'Send a short reminder about the upcoming appointment, renewal or event that concerns the customer. Do not repeat a reminder the customer already received this week.',
        { list_ids: [largest.id] },
        [{ channel: 'email', ...(newestTemplate ? { template_id: newestTemplate } : {}) }],
      ),
    });
  }
  return out;
}
