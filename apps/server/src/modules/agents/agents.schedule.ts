// Agent schedules (engage.md §5): when a schedule's slots fall (cron in its own time zone, DST
// included; an interval from its anchor; once), and the one-minute tick that claims due schedules,
// records each fired slot in agent_schedule_fires (one per agent × slot) for the run loop, and
// always moves next_run_at on, whatever happened to the fire.
import { Cron } from 'croner';
import type { Logger } from 'pino';
import type { TAgentSchedule } from '@titan/contracts';
import type { Db } from '../../db/client';
import * as repo from './agents.repository';

export const SCHEDULE_TICK_QUEUE = 'agents.schedule-tick';
export const SCHEDULE_TICK_CRON = '* * * * *';
/** A slot this late or less is on time; older, it was missed (the job was down). */
export const ON_TIME_MS = 5 * 60_000;
const CLAIM_BATCH = 100;

export type ScheduleSpec = Pick<
  repo.ScheduleRow,
  'kind' | 'cron' | 'everyMinutes' | 'runAt' | 'timezone' | 'startAt' | 'endAt' | 'anchorAt'
>;

/** Parses a five-field cron expression for `timezone`; throws on a bad one. */
export function parseCron(expression: string, timezone: string): Cron {
  if (expression.trim().split(/\s+/).length !== 5) throw new Error('a cron expression has five fields');
  return new Cron(expression, { timezone, paused: true, mode: '5-part' });
}

/** The first slot strictly after `after` within [start_at, end_at), or null when there is none. */
export function slotAfter(spec: ScheduleSpec, after: Date): Date | null {
  let from = after;
  // start_at itself may be a slot: look from just before it.
  if (spec.startAt && spec.startAt.getTime() > after.getTime()) from = new Date(spec.startAt.getTime() - 1);
  let slot: Date | null;
  switch (spec.kind) {
    case 'cron':
      slot = parseCron(spec.cron ?? '', spec.timezone).nextRun(from);
      break;
    case 'interval': {
      const every = (spec.everyMinutes ?? 1) * 60_000;
      const anchor = (spec.startAt ?? spec.anchorAt).getTime();
      const k = from.getTime() < anchor ? 0 : Math.floor((from.getTime() - anchor) / every) + 1;
      slot = new Date(anchor + k * every);
      break;
    }
    case 'once':
      slot = spec.runAt && spec.runAt.getTime() > from.getTime() ? spec.runAt : null;
      break;
  }
  if (slot && spec.endAt && slot.getTime() >= spec.endAt.getTime()) return null;
  return slot;
}

export type FireDecision = { slot: Date; catchUp: boolean } | null;

/**
 * What a due schedule fires at `now` (its next_run_at `due` ≤ now): the latest slot that is still
 * on time; else, after downtime, `run_once` fires one catch-up (the first missed slot) and `skip`
 * fires nothing. Either way the schedule then moves to its first slot after now.
 */
export function decideFire(
  spec: ScheduleSpec,
  missed: repo.ScheduleRow['missed'],
  due: Date,
  now: Date,
): FireDecision {
  const windowStart = new Date(Math.max(due.getTime() - 1, now.getTime() - ON_TIME_MS));
  let recent: Date | null = null;
  for (let s = slotAfter(spec, windowStart); s && s.getTime() <= now.getTime(); s = slotAfter(spec, s)) {
    recent = s;
  }
  const missedAny = now.getTime() - due.getTime() > ON_TIME_MS;
  if (recent) return { slot: recent, catchUp: missedAny };
  if (missedAny && missed === 'run_once') return { slot: due, catchUp: true };
  return null;
}

export function toSchedule(row: repo.ScheduleRow): TAgentSchedule {
  return {
    kind: row.kind,
    cron: row.cron,
    every_minutes: row.everyMinutes,
    run_at: row.runAt?.toISOString() ?? null,
    timezone: row.timezone,
    start_at: row.startAt?.toISOString() ?? null,
    end_at: row.endAt?.toISOString() ?? null,
    missed: row.missed,
    next_run_at: row.nextRunAt?.toISOString() ?? null,
    last_fired_at: row.lastFiredAt?.toISOString() ?? null,
  };
}

/** The next slot after `now`, or null (and the reason) when the schedule cannot be computed. */
function nextAfter(row: repo.ScheduleRow, now: Date): { next: Date | null; error: string | null } {
  try {
    return { next: slotAfter(row, now), error: null };
  } catch (err) {
    return { next: null, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * One tick: claims due schedules of active agents a batch at a time (`for update skip locked`),
 * records what each fires, and moves each to its next slot even when recording failed (the error
 * is kept on the schedule). Answers how many slots were recorded.
 */
export async function runScheduleTick(db: Db, now: Date, logger?: Logger): Promise<number> {
  let fired = 0;
  for (;;) {
    const claimed = await db.transaction(async (tx) => {
      const rows = await repo.claimDueSchedules(tx, now, CLAIM_BATCH);
      for (const row of rows) {
        let error: string | null = null;
        let decision: FireDecision = null;
        try {
          decision = decideFire(row, row.missed, row.nextRunAt!, now);
          if (decision) {
            const d = decision;
            // A savepoint: a failed insert leaves the transaction usable for the rest.
            if (await tx.transaction((sp) => repo.insertFire(sp, row, d.slot, d.catchUp))) fired++;
          }
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
          logger?.error({ err, agent_id: row.agentId }, 'agent schedule slot could not be recorded');
        }
        const next = nextAfter(row, now);
        await repo.setNextRun(tx, row.agentId, {
          nextRunAt: next.next,
          lastError: error ?? next.error,
          ...(decision && !error ? { lastFiredAt: decision.slot } : {}),
        });
      }
      return rows.length;
    });
    if (claimed < CLAIM_BATCH) return fired;
  }
}
