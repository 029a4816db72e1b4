// A run as the API and the `agent_run.finished` webhook tell it: its row with the deliveries
// counted by status. Shared by the read model and the run loop (which reads nothing else here).
import type { TAgentDeliveryStatus, TAgentRunCounts, TAgentRunSummary } from '@titan/contracts';
import type { Queryable } from '../../../db/client';
import * as repo from '../agents.runs.repository';

/** Deliveries of a run that passed the guardrails so far (whatever became of them). */
export function passed(counts: Partial<Record<TAgentDeliveryStatus, number>>): number {
  return (Object.entries(counts) as [TAgentDeliveryStatus, number][])
    .filter(([s]) => s !== 'suppressed' && s !== 'skipped')
    .reduce((n, [, c]) => n + c, 0);
}

function countsOf(
  run: repo.RunRow,
  byStatus: Partial<Record<TAgentDeliveryStatus, number>>,
): TAgentRunCounts {
  const n = (s: TAgentDeliveryStatus) => byStatus[s] ?? 0;
  return {
    considered: run.counts.considered ?? 0,
    planned: passed(byStatus),
    pending_approval: n('pending_approval'),
    rejected: n('rejected'),
    sent: n('sent'),
    failed: n('failed'),
    suppressed: n('suppressed'),
    skipped: n('skipped'),
    dry_run: n('dry_run'),
  };
}

function toSummary(
  run: repo.RunRow,
  byStatus: Partial<Record<TAgentDeliveryStatus, number>>,
): TAgentRunSummary {
  return {
    id: run.id,
    agent_id: run.agentId,
    channel: run.channel,
    status: run.status,
    trigger: run.trigger,
    config_version: run.configVersion,
    send_mode: run.sendMode,
    slot_at: run.slot.toISOString(),
    started_at: run.startedAt.toISOString(),
    finished_at: run.finishedAt?.toISOString() ?? null,
    counts: countsOf(run, byStatus),
    tokens: run.promptTokens + run.completionTokens,
    prompt_tokens: run.promptTokens,
    completion_tokens: run.completionTokens,
    cost: run.cost,
    error: run.error,
  };
}

export async function summaries(db: Queryable, runs: repo.RunRow[]): Promise<TAgentRunSummary[]> {
  const counts = await repo.countDeliveries(
    db,
    runs.map((r) => r.id),
  );
  return runs.map((r) => toSummary(r, counts.get(r.id) ?? {}));
}
