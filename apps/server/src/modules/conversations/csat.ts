// CSAT (issue 29, next-api.md "Team inbox"): resolving a conversation whose chat group asks for
// ratings sends the customer a one-question survey on the conversation's channel — in the widget a
// message the widget shows as a 1–5 rating in the visitor's language; on email, SMS and WhatsApp a
// link to the rating page. The answer comes back by the survey's token (POST /api/public/csat/{token}/)
// and is kept with the group and the member who held the conversation (the dashboard's CSAT).
import type { TCsatAnswer, TCsatSurvey } from '@titan/contracts';
import type { Db } from '../../db/client';
import { advisoryLock } from '../../db/sql';
import { randomToken } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { findBusinessById } from '../business';
import { findGroup } from '../chat-groups';
import type { WhatsappTextSender } from './auto-responder';
import type { ChannelReplies } from './channel-messages';
import * as repo from './conversations.repository';
import { sendChannelReply } from './conversations.service';
import * as levels from './service-levels.repository';

export const CSAT_QUESTION = 'How would you rate this conversation?';

export type CsatDeps = {
  db: Db;
  replies?: ChannelReplies;
  whatsapp?: WhatsappTextSender;
  /** Where the rating page lives (the link on email, SMS and WhatsApp). */
  publicUrl: string;
};

export const csatUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/csat/${token}`;

/**
 * Asks for a rating of the conversation just resolved, once per resolve (however many instances
 * hear it): nothing when its group does not ask, or the conversation is open again. Answers
 * whether it asked.
 */
export async function askForRating(deps: CsatDeps, conversationId: number): Promise<boolean> {
  const enriched = await repo.findConversationById(deps.db, conversationId);
  const conversation = enriched?.conversation;
  if (!conversation || conversation.status !== 'resolved' || conversation.assignedChatGroupId === null)
    return false;
  const group = await findGroup(deps.db, conversation.businessId, conversation.assignedChatGroupId);
  if (!group?.csat) return false;
  const resolvedAt = conversation.resolvedAt ?? conversation.updatedAt;
  const survey = await deps.db.transaction(async (tx) => {
    await advisoryLock(tx, `csat:${conversationId}`);
    const latest = await levels.findLatestCsatOf(tx, conversationId);
    if (latest && latest.createdAt.getTime() >= resolvedAt.getTime()) return null;
    const row = await levels.insertCsatSurvey(tx, {
      businessId: conversation.businessId,
      conversationId,
      chatGroupId: group.id,
      assigneeId: conversation.assigneeId,
      channel: conversation.channel,
      token: randomToken(24),
    });
    if (conversation.channel === 'titan_message') {
      // The widget shows this message as the rating, in the visitor's language.
      await repo.insertMessage(tx, {
        businessId: conversation.businessId,
        conversationId,
        senderType: 'system',
        senderId: null,
        isRead: true,
        status: 'sent',
        messageType: 'text',
        content: CSAT_QUESTION,
        metaData: { csat: { token: row.token } },
      });
    }
    return row;
  });
  if (!survey) return false;
  if (conversation.channel === 'titan_message') return true;
  const text = `${CSAT_QUESTION} ${csatUrl(deps.publicUrl, survey.token)}`;
  const metaData = { csat: { token: survey.token } };
  if (conversation.channel === 'whatsapp') {
    if (deps.whatsapp)
      await deps.whatsapp({ businessId: conversation.businessId, conversationId }, text, metaData);
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

async function surveyOf(db: Db, token: string) {
  const row = await levels.findCsatByToken(db, token);
  if (!row) throw AppError.notFound();
  return row;
}

async function toSurvey(db: Db, row: levels.CsatRow): Promise<TCsatSurvey> {
  const business = await findBusinessById(db, row.businessId);
  return {
    business: business?.name ?? '',
    rating: row.rating,
    comment: row.comment,
    answered_at: row.answeredAt?.toISOString() ?? null,
  };
}

export async function findCsatSurvey(db: Db, token: string): Promise<TCsatSurvey> {
  return toSurvey(db, await surveyOf(db, token));
}

/** The customer's rating (a new one replaces the last). */
export async function answerCsatSurvey(
  db: Db,
  token: string,
  answer: TCsatAnswer,
  now: Date = new Date(),
): Promise<TCsatSurvey> {
  const row = await surveyOf(db, token);
  const saved = await levels.answerCsat(
    db,
    row.id,
    { rating: answer.rating, comment: answer.comment || null },
    now,
  );
  return toSurvey(db, saved!);
}
