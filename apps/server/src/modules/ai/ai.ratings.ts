// Staff rating of the first responder's answers (issue 33: "measured answer quality"): a member who
// can see the conversation rates a responder run good or bad with a reason; the report counts the
// responder's outcomes, handoff reasons and ratings over a period and lists the newest answers rated
// bad with why — what to fix in the knowledge base.
import {
  AI_ERRORS,
  type TAiRateRequest,
  type TAiReport,
  type TAiReportQuery,
  type TAiRun,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { findConversationView } from '../conversations';
import { type InboxScope } from '../../platform/inbox-scope';
import type { AiDeps } from './ai.deps';
import { toRun } from './ai.copilot';
import * as repo from './ai.repository';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function rateRun(
  deps: AiDeps,
  scope: InboxScope,
  userId: number | null,
  id: string,
  input: TAiRateRequest,
): Promise<TAiRun> {
  const row = await repo.findRun(deps.db, scope.businessId, id);
  if (!row || row.conversationId === null) throw new AppError('not_found', AI_ERRORS.runNotFound);
  // As every inbox route: a conversation outside the caller's chat groups is not found.
  try {
    await findConversationView(deps.db, scope, row.conversationId);
  } catch {
    throw new AppError('not_found', AI_ERRORS.runNotFound);
  }
  if (row.kind !== 'responder' || row.status === 'running')
    throw new AppError('conflict', AI_ERRORS.notAnAnswer);
  const rated = await repo.rateRun(deps.db, scope.businessId, id, {
    rating: input.rating,
    reason: input.reason ? input.reason : null,
    userId,
  });
  if (!rated) throw new AppError('not_found', AI_ERRORS.runNotFound);
  return toRun(rated);
}

export async function responderReport(
  deps: AiDeps,
  businessId: number,
  query: TAiReportQuery,
  now = new Date(),
): Promise<TAiReport> {
  const to = query.to ? new Date(query.to) : now;
  const from = query.from ? new Date(query.from) : new Date(to.getTime() - 30 * DAY_MS);
  if (from >= to) throw AppError.fields({ from: [AI_ERRORS.reportPeriod] });
  const r = await repo.responderReport(deps.db, businessId, from, to);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    runs: r.runs,
    answered: r.answered,
    handed_off: r.handedOff,
    handoff_reasons: r.reasons,
    rated_good: r.good,
    rated_bad: r.bad,
    good_rate: r.good + r.bad > 0 ? Math.round((r.good / (r.good + r.bad)) * 1000) / 1000 : null,
    tokens: r.tokens,
    recent_bad: r.recentBad.map((b) => ({
      run_id: b.id,
      conversation_id: b.conversationId,
      reason: b.reason,
      rated_at: b.ratedAt.toISOString(),
    })),
  };
}
