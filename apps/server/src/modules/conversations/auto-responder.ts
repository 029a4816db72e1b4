// What the inbox answers by itself (issue 29, next-api.md "Team inbox"), heard on the change feed:
// the away reply to a customer's message outside business hours, and the CSAT survey when a
// conversation is resolved (./csat.ts).
//
// The away reply: a customer who writes outside their
// conversation's chat group's business hours gets the group's away message, once per conversation
// per closed period, on whatever channel they wrote (own chat, WhatsApp — the 24-hour window is
// open, they just wrote —, SMS, email). Every instance hears the feed's message inserts; the
// period's row in conversation_away_replies (keyed by when the group opens again) is claimed with
// ON CONFLICT DO NOTHING, so however many instances hear one message the reply goes once. The away
// reply is a message from "system": it is no answer of the team's (the conversation still awaits a
// reply, its SLA clock keeps running).
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { Change, ChangeFeed } from '../../platform/change-feed';
import type { Clock } from '../../platform/clock';
import { closedPeriodKey, findGroup } from '../chat-groups';
import type { ChannelReplies } from './channel-messages';
import * as repo from './conversations.repository';
import { sendChannelReply } from './conversations.service';
import * as levels from './service-levels.repository';
import { askForRating } from './csat';

/** Sends a text on a WhatsApp conversation (the whatsapp module's, handed in by composition). */
export type WhatsappTextSender = (
  target: { businessId: number; conversationId: number },
  text: string,
  metaData: Record<string, unknown>,
) => Promise<void>;

export type AwayDeps = {
  db: Db;
  feed: ChangeFeed;
  logger: Logger;
  clock: Clock;
  replies?: ChannelReplies;
  whatsapp?: WhatsappTextSender;
  /** Where the CSAT rating page lives. */
  publicUrl: string;
};

/**
 * Answers a customer's message in the conversation with the away message when its group is closed
 * at `now` and this closed period was not answered yet. Answers whether it sent one.
 */
export async function replyIfAway(
  deps: Omit<AwayDeps, 'feed' | 'logger' | 'clock'>,
  conversationId: number,
  now: Date,
): Promise<boolean> {
  const enriched = await repo.findConversationById(deps.db, conversationId);
  const conversation = enriched?.conversation;
  if (!conversation || conversation.assignedChatGroupId === null) return false;
  const group = await findGroup(deps.db, conversation.businessId, conversation.assignedChatGroupId);
  if (!group || !group.awayMessage) return false;
  const period = closedPeriodKey(group.businessHours, now);
  if (period === null) return false;
  const text = group.awayMessage;
  const metaData = { away: true, reopens_at: period === 'never' ? null : period };
  const { businessId, channel } = conversation;

  if (channel === 'titan_message') {
    return deps.db.transaction(async (tx) => {
      if (!(await levels.claimAwayReply(tx, businessId, conversationId, period))) return false;
      await repo.insertMessage(tx, {
        businessId,
        conversationId,
        senderType: 'system',
        senderId: null,
        isRead: true,
        status: 'sent',
        messageType: 'text',
        content: text,
        metaData,
      });
      return true;
    });
  }
  // The other channels call out: the claim commits first, so a slow or failed send is never repeated.
  if (!(await levels.claimAwayReply(deps.db, businessId, conversationId, period))) return false;
  if (channel === 'whatsapp') {
    if (!deps.whatsapp) return false;
    await deps.whatsapp({ businessId, conversationId }, text, metaData);
    return true;
  }
  // Titan's own message (sender `system`), not the AI's (the argument before).
  await sendChannelReply(
    deps.db,
    deps.replies,
    conversation,
    null,
    { message_type: 'text', content: text },
    undefined,
    { metaData },
  );
  return true;
}

const MESSAGE_TABLES = new Set(['messages', 'wa_messages']);

/**
 * Whether a new message may be one the responder acts on — a customer's, or a resolve's activity
 * line — by what the announcement says of it (migration 0094); one that says nothing is read.
 */
export function mayConcernAutoResponder(change: Pick<Change, 'sender_type' | 'message_type' | 'action'>) {
  if (change.sender_type === undefined || change.sender_type === null) return true;
  return (
    change.sender_type === 'customer' ||
    (change.message_type === 'activity' && change.action === 'status_changed')
  );
}

/** One instance's auto-responder: looks at every message a customer writes, and every resolve. */
export class AutoResponder {
  private readonly pending = new Set<Promise<unknown>>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: AwayDeps) {}

  start(): this {
    this.unsubscribe = this.deps.feed.subscribe((change) => this.onChange(change));
    return this;
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.idle();
  }

  /** Resolves once every message heard so far was looked at (tests). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private onChange(change: Change): void {
    if (change.op !== 'INSERT' || !MESSAGE_TABLES.has(change.table)) return;
    if (!change.id || !change.business_id || !change.conversation_id) return;
    if (!mayConcernAutoResponder(change)) return;
    const at = this.deps.clock.now();
    const run = this.handle(
      change.table as 'messages' | 'wa_messages',
      Number(change.business_id),
      change.id,
      Number(change.conversation_id),
      at,
    )
      .catch((err) =>
        this.deps.logger.error({ err, conversationId: change.conversation_id }, 'auto-response failed'),
      )
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  private async handle(
    table: 'messages' | 'wa_messages',
    businessId: number,
    id: string,
    conversationId: number,
    at: Date,
  ) {
    const message = await levels.messageInfo(this.deps.db, table, businessId, id);
    if (!message) return;
    if (message.senderType === 'customer') await replyIfAway(this.deps, conversationId, at);
    else if (
      message.messageType === 'activity' &&
      message.metaData.action === 'status_changed' &&
      message.metaData.status === 'resolved'
    )
      await askForRating(this.deps, conversationId);
  }
}
