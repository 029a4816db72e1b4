// Auto-assignment (issue 29, next-api.md "Team inbox"). A chat group whose assignment mode is
// round_robin or least_busy hands each conversation that waits (created or reopened without an
// assignee: migration 0048's trigger stamps awaiting_assignment_at) to one of its members who is
// online and holds fewer than `capacity` open conversations of the group, oldest waiting first.
// With nobody eligible it waits in Unassigned, and is handed out when someone comes online or frees
// capacity. Every instance runs an engine; they agree through PostgreSQL alone:
// - one claim = one transaction holding the group's advisory lock: capacity is counted and spent
//   under it, so two instances never both fill a member's last place;
// - a conversation the group's AI first responder holds (issue 33: its responder always on for the
//   conversation's channel, and the AI has not handed it to a person) is passed by;
// - the conversation is taken FOR UPDATE SKIP LOCKED and re-checked as still waiting in the UPDATE,
//   so no conversation is assigned twice (a person assigning it meanwhile wins; it stops waiting).
// What wakes an engine: changes on the feed (conversations, presence, a group's settings), and a
// sweep every AUTO_ASSIGN_SWEEP_MS for whatever the feed may have missed.
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import type { Change, ChangeFeed } from '../../platform/change-feed';
import { findAssignmentRules, moveAssignmentCursor } from '../chat-groups';
import type { Clock } from '../../platform/clock';
import * as repo from './auto-assign.repository';

/** Tables whose changes may make a waiting conversation assignable. */
const WAKING_TABLES = new Set(['conversations', 'user_presence', 'chat_group_assignment']);

export const AUTO_ASSIGN_SWEEP_MS = 30_000;

type Mode = 'round_robin' | 'least_busy';

/** Who gets the next conversation: the next member after the cursor (round robin), or the least busy. */
export function pickMember(
  mode: Mode,
  lastUserId: number | null,
  eligible: repo.Candidate[],
): repo.Candidate | undefined {
  // The circle, starting after the member assigned last.
  const after = eligible.findIndex((c) => lastUserId === null || c.userId > lastUserId);
  const circle = after <= 0 ? eligible : [...eligible.slice(after), ...eligible.slice(0, after)];
  if (mode === 'round_robin') return circle[0];
  return circle.reduce<repo.Candidate | undefined>(
    (best, c) => (!best || c.open < best.open ? c : best),
    undefined,
  );
}

/** Conversations one claim hands out at most: one transaction, one lock, one read of the rules. */
export const CLAIM_BATCH = 50;

/**
 * One claim in one chat group: up to CLAIM_BATCH of the oldest waiting conversations, each to the
 * member the group's rule picks next (counting what this claim already gave), with their activity
 * lines, in one transaction under the group's lock: lock, rules, counts, rows locked, assigned with
 * their lines (one statement), cursor moved. Answers how many were assigned (0: nothing, or
 * nobody, is left).
 */
export async function claimBatch(db: Db, groupId: number, now: Date = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    await repo.advisoryLock(tx, repo.assignmentLockKey(groupId));
    // Outside the group's business hours nobody is "online" for it: the conversations wait.
    const rules = await findAssignmentRules(tx, groupId, now);
    if (!rules || !rules.open) return 0;
    const members = await repo.candidates(tx, rules.businessId, groupId);
    const open = new Map(members.map((c) => [c.userId, c.open]));
    const room = members.reduce((n, c) => n + Math.max(0, rules.capacity - c.open), 0);
    if (room === 0) return 0;
    // What the group's AI first responder holds is not given out until it hands it to a person.
    const waiting = await repo.lockOldestWaiting(tx, groupId, rules.aiHeld, Math.min(room, CLAIM_BATCH));
    const picks: { conversation: (typeof waiting)[number]; member: repo.Candidate }[] = [];
    let last = rules.lastUserId;
    for (const conversation of waiting) {
      const eligible = members
        .map((c) => ({ ...c, open: open.get(c.userId)! }))
        .filter((c) => c.open < rules.capacity);
      const member = pickMember(rules.mode, last, eligible);
      if (!member) break;
      picks.push({ conversation, member });
      open.set(member.userId, member.open + 1);
      last = member.userId;
    }
    if (picks.length === 0) return 0;
    // Assigned with their activity lines in one statement, as a person's assignment reads
    // ("… assigned this conversation to …"), by the group's rule.
    const assigned = await repo.assignMany(
      tx,
      picks.map(({ conversation, member }) => ({
        conversationId: conversation.id,
        userId: member.userId,
        content: `Auto-assignment assigned this conversation to ${member.name}`,
        metaData: {
          action: 'assigned',
          actor: null,
          assignee: { id: member.userId, name: member.name },
          previous_assignee_id: null,
          auto: rules.mode,
        },
      })),
    );
    const done = picks.filter((p) => assigned.has(p.conversation.id));
    if (done.length === 0) return 0;
    await moveAssignmentCursor(tx, groupId, done[done.length - 1]!.member.userId);
    return done.length;
  });
}

/** Hands out everything assignable in one business (or all of them); answers how many. */
export async function assignWaiting(
  db: Db,
  businessId: number | null,
  now: () => Date = () => new Date(),
): Promise<number> {
  let assigned = 0;
  for (const { groupId } of await repo.groupsWaiting(db, businessId)) {
    for (;;) {
      const n = await claimBatch(db, groupId, now());
      if (n === 0) break;
      assigned += n;
    }
  }
  return assigned;
}

export type AutoAssignDeps = {
  db: Db;
  feed: ChangeFeed;
  logger: Logger;
  sweepMs?: number;
  /** "Now" for business hours (the runtime's clock). */
  clock?: Clock;
};

/** One instance's engine: drains a business when the feed says something changed there. */
export class AutoAssigner {
  private readonly running = new Map<number, Promise<void>>();
  private readonly again = new Set<number>();
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  private unreset: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: AutoAssignDeps) {}

  start(): this {
    this.unsubscribe = this.deps.feed.subscribe((change) => this.onChange(change));
    this.unreset = this.deps.feed.onReset(() => void this.sweep());
    this.timer = setInterval(() => void this.sweep(), this.deps.sweepMs ?? AUTO_ASSIGN_SWEEP_MS);
    this.timer.unref();
    void this.sweep();
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unreset?.();
    if (this.timer) clearInterval(this.timer);
    await this.idle();
  }

  /** Resolves once no drain is running on this instance (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all(this.running.values());
  }

  private onChange(change: Change): void {
    if (!WAKING_TABLES.has(change.table) || change.business_id === null) return;
    this.request(Number(change.business_id));
  }

  /** Every business with conversations waiting in an auto-assigning group. */
  async sweep(): Promise<void> {
    if (this.stopped) return;
    try {
      const businesses = new Set((await repo.groupsWaiting(this.deps.db, null)).map((g) => g.businessId));
      for (const businessId of businesses) this.request(businessId);
    } catch (err) {
      this.deps.logger.error({ err }, 'auto-assignment sweep failed');
    }
  }

  /** Drains the business; a request while it drains runs it once more after. */
  request(businessId: number): void {
    if (this.stopped) return;
    if (this.running.has(businessId)) {
      this.again.add(businessId);
      return;
    }
    const run = (async () => {
      do {
        this.again.delete(businessId);
        try {
          await assignWaiting(this.deps.db, businessId, () => this.deps.clock?.now() ?? new Date());
        } catch (err) {
          this.deps.logger.error({ err, businessId }, 'auto-assignment failed');
        }
      } while (this.again.has(businessId) && !this.stopped);
    })().finally(() => this.running.delete(businessId));
    this.running.set(businessId, run);
  }
}
