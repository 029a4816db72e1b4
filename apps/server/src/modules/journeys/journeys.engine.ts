// The journey engine, one pass of the `journeys.advance` loop: events journeys have not heard start
// runs (under the re-entry rule) and end waits; then due steps are claimed (skip locked, a lease)
// and each is run in its own transaction that finishes it and enters the next. A send step records
// its send in the spine in that same transaction under the key `journey:<run>:<node>:<visit>`, and
// hands it to its channel after the commit: a worker killed before the commit leaves the step to be
// taken again (no send was kept), one killed after it leaves a queued send the spine's recovery
// hands on — sent once either way.
import {
  CAMPAIGN_QUIET_HOURS,
  journeyExitLabels,
  unansweredHoursOf,
  type TJourneyGraph,
  type TJourneyNode,
  type TJourneyRule,
} from '@titan/contracts';
import { createHash } from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import type { Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { recordEventsOfType } from '../webhooks';
import type { JourneyCustomer, JourneyDeps, SendChannel } from './journeys.deps';
import * as repo from './journeys.repository';

/** How many times a step failing for a reason Titan cannot explain is taken before it fails. */
export const STEP_ATTEMPTS = 5;
/** The path's reason for such a step. */
export const STEP_ATTEMPTS_WORDS = (attempts: number, err: unknown) =>
  `Titan could not run this step (${attempts} attempts): ${err instanceof Error ? err.message : String(err)}`.slice(
    0,
    500,
  );

export const JOURNEYS_LOOP = 'journeys.advance';

/** The event a date-triggered journey makes for itself when a customer's date comes round. */
export const dateEventName = (journeyId: number) => `journey.date:${journeyId}`;
/** The event a segment-triggered journey makes for itself when a customer enters its segment. */
export const segmentEventName = (journeyId: number) => `journey.segment:${journeyId}`;

/** Published graphs never change: kept per database (ids are its own) and journey version. */
const graphCaches = new WeakMap<object, Map<string, TJourneyGraph>>();
export async function graphOf(
  deps: Pick<JourneyDeps, 'db'>,
  db: Queryable,
  journeyId: number,
  version: number,
): Promise<TJourneyGraph | null> {
  let graphs = graphCaches.get(deps.db);
  if (!graphs) graphCaches.set(deps.db, (graphs = new Map()));
  const key = `${journeyId}:${version}`;
  let graph = graphs.get(key);
  if (!graph) {
    const row = await repo.findVersion(db, journeyId, version);
    if (!row) return null;
    graph = row.graph as unknown as TJourneyGraph;
    // A draft version may still change: only published ones are kept.
    if (row.publishedAt) {
      if (graphs.size > 5000) graphs.clear();
      graphs.set(key, graph);
    }
  }
  return graph;
}

// ---- Outbound webhook events ----

type JourneyWebhookType = 'journey.entered' | 'journey.step_completed' | 'journey.exited';

/**
 * A `journey.*` webhook event about a run, in the transaction of the change it tells of; built only
 * when the business has an endpoint listening for the type (one indexed lookup otherwise).
 */
async function emitRunEvent(
  tx: Queryable,
  type: JourneyWebhookType,
  run: repo.RunRow,
  at: Date,
  data: Record<string, unknown>,
): Promise<void> {
  await recordEventsOfType(tx, type, [run], () => ({
    objectKey: `journey_run:${run.id}`,
    at,
    data: {
      journey_id: run.journeyId,
      version: run.version,
      run_id: run.id,
      customer_id: run.customerId,
      ...data,
    },
  }));
}

/** Ends an active run and tells listening endpoints (`journey.exited`). */
async function endRun(
  tx: Queryable,
  run: repo.RunRow,
  status: 'exited' | 'failed',
  at: Date,
  nodeId: string | null,
): Promise<void> {
  if (await repo.endRun(tx, run.id, status, at))
    await emitRunEvent(tx, 'journey.exited', run, at, { status, node_id: nodeId });
}

/** A finished step, told to listening endpoints (`journey.step_completed`). */
async function stepCompleted(
  tx: Queryable,
  run: repo.RunRow,
  node: TJourneyNode | null,
  nodeId: string,
  result: { status: string; outcome: string | null; detail: Record<string, unknown> | null },
  at: Date,
): Promise<void> {
  await emitRunEvent(tx, 'journey.step_completed', run, at, {
    node_id: nodeId,
    node_type: node?.type ?? null,
    status: result.status,
    outcome: result.outcome,
    send_id: (result.detail?.send_id as string | null | undefined) ?? null,
    reason: (result.detail?.reason as string | null | undefined) ?? null,
  });
}

const nodeOf = (graph: TJourneyGraph, id: string) => graph.nodes.find((n) => n.id === id) ?? null;

/** The node an edge leads to from `from` by `label` (nodes with one way out: its only edge). */
function nextOf(graph: TJourneyGraph, from: TJourneyNode, label: string | null): string | null {
  const labelled = journeyExitLabels(from) !== null;
  const edge = graph.edges.find((e) => e.from === from.id && (!labelled || e.label === label));
  return edge?.to ?? null;
}

const addSeconds = (at: Date, s: number) => new Date(at.getTime() + s * 1000);

/** When a wait ends: `due` on the real clock, or — a test run — `clock_speed` times sooner. */
const waitEnd = (run: repo.RunRow, at: Date, due: Date): Date =>
  run.clockSpeed ? new Date(at.getTime() + Math.max(0, due.getTime() - at.getTime()) / run.clockSpeed) : due;

/** The next instant after `at` whose wall clock in `zone` reads `hhmm` (today's, else tomorrow's). */
export function nextLocalTime(at: Date, zone: string, hhmm: string): Date {
  const [hh, mm] = hhmm.split(':').map(Number) as [number, number];
  const now = new TZDate(at.getTime(), zone);
  for (let day = 0; day < 3; day++) {
    const t = new TZDate(now.getFullYear(), now.getMonth(), now.getDate() + day, hh, mm, 0, 0, zone);
    if (t.getTime() > at.getTime()) return new Date(t.getTime());
  }
  return addSeconds(at, 86_400);
}

/** Where a customer entering a node goes: the step to store, and the run's end when it ends there. */
type Entry = {
  step: repo.NewStep | null;
  end: { status: 'exited' | 'failed'; nodeId: string | null } | null;
  /** The step stored is due at once (the loop runs it next). */
  due: boolean;
};

/** Reads a pass shares among its steps: the run's customer and its trigger event. */
type Lookups = {
  customer(tx: Queryable, run: repo.RunRow): Promise<JourneyCustomer | null>;
  event(tx: Queryable, run: repo.RunRow): Promise<repo.EventRow | null>;
  /** What the send port keeps for the batch (see recordSend). */
  memo?: Map<string, unknown>;
};

/** Each read as it is asked for (a step or an event heard alone). */
const directLookups = (deps: JourneyDeps): Lookups => ({
  async customer(tx, run) {
    const [customer] = await deps.ports.findCustomers(tx, run.businessId, [run.customerId]);
    return customer ?? null;
  },
  event: (tx, run) => (run.triggerEventId ? repo.findEvent(tx, run.triggerEventId) : Promise.resolve(null)),
});

/**
 * What entering a node does: a wait starts its timer, an exit ends the run at once, any other step
 * is due now for the loop to run. Stores nothing (enter and a batch store it).
 */
async function planEnter(
  deps: JourneyDeps,
  tx: Queryable,
  run: repo.RunRow,
  graph: TJourneyGraph,
  nodeId: string | null,
  at: Date,
  visit: number,
  lookups: Lookups,
): Promise<Entry> {
  if (nodeId === null) return { step: null, end: { status: 'exited', nodeId: null }, due: false };
  const node = nodeOf(graph, nodeId);
  if (!node) return { step: null, end: { status: 'failed', nodeId }, due: false };
  if (node.type === 'exit')
    return {
      step: { run, nodeId, visit, status: 'exited', dueAt: null, at },
      end: { status: 'exited', nodeId },
      due: false,
    };
  if (node.type === 'wait' && node.config.kind === 'duration') {
    const dueAt = waitEnd(run, at, addSeconds(at, node.config.seconds));
    return { step: { run, nodeId, visit, status: 'waiting', dueAt, at }, end: null, due: false };
  }
  if (node.type === 'wait' && node.config.kind === 'until_event') {
    const dueAt = waitEnd(run, at, addSeconds(at, node.config.timeout_seconds));
    return {
      step: { run, nodeId, visit, status: 'waiting', dueAt, waitEvent: node.config.event, at },
      end: null,
      due: false,
    };
  }
  if (node.type === 'wait' && node.config.kind === 'until_time') {
    const customer = await lookups.customer(tx, run);
    const zone = customer ? await deps.ports.zoneOf(tx, run.businessId, customer) : 'UTC';
    const dueAt = waitEnd(run, at, nextLocalTime(at, zone, node.config.local_time));
    return {
      step: { run, nodeId, visit, status: 'waiting', dueAt, detail: { zone }, at },
      end: null,
      due: false,
    };
  }
  return { step: { run, nodeId, visit, status: 'pending', dueAt: at, at }, end: null, due: true };
}

/**
 * Enters a node (see planEnter) and stores it. Answers whether it entered a step due at once.
 */
async function enter(
  deps: JourneyDeps,
  tx: Queryable,
  run: repo.RunRow,
  graph: TJourneyGraph,
  nodeId: string | null,
  at: Date,
  /** The visit of the node entered (a customer moved onto a node they passed before: their next). */
  visit = 1,
  lookups: Lookups = directLookups(deps),
): Promise<boolean> {
  const entry = await planEnter(deps, tx, run, graph, nodeId, at, visit, lookups);
  if (entry.step) {
    await repo.insertStep(tx, entry.step);
    if (entry.step.dueAt && entry.step.status === 'waiting') timerAt(deps, entry.step.dueAt);
  }
  if (entry.end) await endRun(tx, run, entry.end.status, at, entry.end.nodeId);
  return entry.due;
}

// ---- Timers ----

/** Per database: the wake-up set for the earliest wait this process knows of (one timer at a time). */
const timers = new WeakMap<object, { at: number; timer: NodeJS.Timeout }>();
/** Waits further off than this are left to the loop's poll. */
const TIMER_HORIZON_MS = 60_000;

/**
 * Wakes this process's loop when a wait comes due, instead of at its next poll, so waits end on
 * time. A pass that empties the queue sets it for the next wait due (any instance's).
 */
function timerAt(deps: JourneyDeps, due: Date): void {
  const delay = due.getTime() - deps.clock().getTime();
  if (delay > TIMER_HORIZON_MS) return;
  const at = Date.now() + Math.max(0, delay);
  const set = timers.get(deps.db);
  if (set && set.at <= at) return;
  if (set) clearTimeout(set.timer);
  const timer = setTimeout(
    () => {
      timers.delete(deps.db);
      deps.wake();
    },
    Math.max(0, delay) + 2,
  );
  timer.unref();
  timers.set(deps.db, { at, timer });
}

// ---- Moving customers in flight ----

/** How many steps in flight one transaction moves. */
const MOVE_PAGE = 500;

/**
 * Customers in flight on older versions go on in the live version at `toNode`: each one's open step
 * ends (exited, outcome `moved`, saying where to) and they enter `toNode` of the live graph in the
 * same transaction — a send there is a new visit with its own key, so it sends (once) even to a
 * customer who passed a step of that id before. A step a worker holds at that moment is left, and
 * its customer with it (`left`): moving again takes them once it is done. Test runs stay as they are.
 */
export async function moveInFlight(
  deps: JourneyDeps,
  journey: { id: number; liveVersion: number },
  toNode: string,
): Promise<{ moved: number; left: number }> {
  const graph = await graphOf(deps, deps.db, journey.id, journey.liveVersion);
  if (!graph || !nodeOf(graph, toNode)) throw new AppError('not_found', 'No such step in the live version.');
  let moved = 0;
  for (;;) {
    const at = deps.clock();
    const page = await deps.db.transaction(async (tx) => {
      const steps = await repo.lockStepsInFlight(tx, journey.id, journey.liveVersion, at, MOVE_PAGE);
      let movedHere = 0;
      for (const step of steps) {
        const before = await repo.findRun(tx, step.runId);
        if (!before || before.status !== 'active') continue;
        const detail = { reason: `Moved to step ${toNode} of version ${journey.liveVersion}.` };
        const ended = { status: 'exited' as const, outcome: 'moved', detail };
        await repo.finishStep(tx, step.id, ended, at);
        const old = await graphOf(deps, tx, step.journeyId, step.version);
        await stepCompleted(tx, before, old && nodeOf(old, step.nodeId), step.nodeId, ended, at);
        // A second open step of a customer moved a moment ago ends with the first.
        if (before.version >= journey.liveVersion) continue;
        const run = await repo.setRunVersion(tx, before.id, journey.liveVersion);
        const visit = (await repo.lastVisit(tx, run.id, toNode)) + 1;
        await enter(deps, tx, run, graph, toNode, at, visit);
        movedHere += 1;
      }
      return { taken: steps.length, moved: movedHere };
    });
    moved += page.moved;
    if (page.taken < MOVE_PAGE) break;
  }
  deps.wake();
  return { moved, left: await repo.countRunsInFlight(deps.db, journey.id, journey.liveVersion) };
}

// ---- Test runs ----

/**
 * Test mode: the chosen customer enters the journey's newest version (a draft too) at once, its
 * re-entry rule aside, and its waits last `clockSpeed` times less; its steps run as any others do
 * (sends included) and its counts stay out of the journey's. Answers the run.
 */
export async function startTestRun(
  deps: JourneyDeps,
  input: { businessId: number; journeyId: number; version: number; customerId: number; clockSpeed: number },
): Promise<repo.RunRow> {
  const at = deps.clock();
  const run = await deps.db.transaction(async (tx) => {
    const graph = await graphOf(deps, tx, input.journeyId, input.version);
    const trigger = graph?.nodes.find((n) => n.type === 'trigger');
    if (!graph || !trigger) throw new AppError('conflict', 'This journey has no trigger to start from.');
    const run = (await repo.startRun(tx, {
      businessId: input.businessId,
      journeyId: input.journeyId,
      version: input.version,
      customerId: input.customerId,
      triggerEventId: null,
      reentry: 'always',
      at,
      clockSpeed: input.clockSpeed,
    }))!;
    await emitRunEvent(tx, 'journey.entered', run, at, { trigger_event: null, trigger_event_id: null });
    await repo.insertStep(tx, { run, nodeId: trigger.id, status: 'passed', dueAt: null, at });
    await enter(deps, tx, run, graph, nextOf(graph, trigger, null), at);
    return run;
  });
  deps.wake();
  return run;
}

// ---- Events ----

/** How many journeys' update steps may lead, one to the next, to an event that starts another. */
export const MAX_JOURNEY_CHAIN = 5;

export const LOOP_WORDS = {
  again: (journeyId: number) =>
    `Journey ${journeyId} was not started again: this step's change came from it (a loop).`,
  tooDeep: (journeyId: number) =>
    `Journey ${journeyId} was not started: ${MAX_JOURNEY_CHAIN} journeys in a row already led to this change.`,
} as const;

/** Why an event a journey step caused may not start this journey (a loop), or null. */
function loopOf(event: repo.EventRow, journeyId: number): string | null {
  const chain = event.origin?.journeys;
  if (!chain) return null;
  if (chain.includes(journeyId)) return LOOP_WORDS.again(journeyId);
  if (chain.length >= MAX_JOURNEY_CHAIN) return LOOP_WORDS.tooDeep(journeyId);
  return null;
}

/** What a batch of events heard shares: the live journeys per (business, event name), the runs entered. */
type Hearing = {
  journeysOn: Map<string, repo.JourneyRow[]>;
  /** Runs started, told to listening endpoints (`journey.entered`) once for the batch. */
  entered: { run: repo.RunRow; data: Record<string, unknown> }[];
};

async function hearEvent(
  deps: JourneyDeps,
  tx: Queryable,
  event: repo.EventRow,
  at: Date,
  hearing: Hearing,
): Promise<number> {
  let due = 0;
  // Runs of this business's live journeys that start on this event (read once a batch).
  const key = `${event.businessId}:${event.name}`;
  let live = hearing.journeysOn.get(key);
  if (!live)
    hearing.journeysOn.set(key, (live = await repo.liveJourneysOn(tx, event.businessId, event.name)));
  for (const journey of live) {
    if (journey.liveVersion === null) continue;
    const graph = await graphOf(deps, tx, journey.id, journey.liveVersion);
    const trigger = graph?.nodes.find((n) => n.type === 'trigger');
    if (!graph || trigger?.type !== 'trigger') continue;
    const on = trigger.config;
    const startsOn =
      on.kind === 'event'
        ? on.event
        : on.kind === 'date'
          ? dateEventName(journey.id)
          : segmentEventName(journey.id);
    if (startsOn !== event.name) continue;
    const loop = loopOf(event, journey.id);
    if (loop) {
      // Said on the update step whose change made the event; the event starts the others.
      await repo.noteLoopSkip(tx, event.origin!.step_id, journey.id, loop);
      continue;
    }
    const run = await repo.startRun(tx, {
      businessId: event.businessId,
      journeyId: journey.id,
      version: journey.liveVersion,
      customerId: event.customerId,
      triggerEventId: event.id,
      reentry: journey.reentry,
      at,
    });
    if (!run) continue;
    hearing.entered.push({ run, data: { trigger_event: event.name, trigger_event_id: event.id } });
    // The trigger passed and the next step entered, in one statement.
    const entry = await planEnter(
      deps,
      tx,
      run,
      graph,
      nextOf(graph, trigger, null),
      at,
      1,
      directLookups(deps),
    );
    const triggerStep: repo.NewStep = {
      run,
      nodeId: trigger.id,
      status: 'passed',
      dueAt: null,
      detail: { event_id: event.id },
      at,
    };
    await repo.insertSteps(tx, entry.step ? [triggerStep, entry.step] : [triggerStep]);
    if (entry.step?.status === 'waiting' && entry.step.dueAt) timerAt(deps, entry.step.dueAt);
    if (entry.end) await endRun(tx, run, entry.end.status, at, entry.end.nodeId);
    if (entry.due) due++;
  }
  due += (await endWaitsOn(deps, tx, event, at)).due;
  return due;
}

// ---- Dates ----

/** `birthday` or `customer.fields.birthday`: the custom field's own key. */
export const dateFieldKey = (field: string) => field.replace(/^customer\.fields\./, '');

/** The month and day of a stored date (YYYY-MM-DD, a date-time, or --MM-DD), as `MM-DD`. */
export function monthDayOf(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(?:\d{4}-|--)(\d{2})-(\d{2})(?:$|[T\s])/.exec(value.trim());
  if (!m) return null;
  const [month, day] = [Number(m[1]), Number(m[2])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  return `${m[1]}-${m[2]}`;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const pad = (n: number) => String(n).padStart(2, '0');

/** Whether a date falling on `md` comes round on this local day (29 February: the 28th in other years). */
function comesRound(md: string, y: number, m: number, d: number): boolean {
  const today = `${pad(m)}-${pad(d)}`;
  return md === today || (md === '02-29' && today === '02-28' && !isLeap(y));
}

/** The month-days that are "today" somewhere on Earth at `at` (a local day spans UTC−12 to UTC+14). */
function monthDaysAround(at: Date): string[] {
  const days = new Set<string>();
  for (const offset of [-1, 0, 1]) {
    const t = new Date(at.getTime() + offset * 86_400_000);
    days.add(`${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`);
    if (t.getUTCMonth() === 1 && t.getUTCDate() === 28 && !isLeap(t.getUTCFullYear())) days.add('02-29');
  }
  return [...days];
}

/** When each date journey was last scanned (clock minutes), per database: one scan a minute is enough. */
const dateScans = new WeakMap<object, Map<number, number>>();
const DATE_PAGE = 500;

/**
 * Date triggers: for each live journey starting on a date, the customers whose date comes round
 * today on their own clock and whose local time has reached the trigger's get the journey's own
 * event, keyed by journey, customer and local day — stored once however many workers scan — which
 * `hearEvents` then takes like any other (the re-entry rule decides a second year). Answers how
 * many events it stored.
 */
export async function scanDates(deps: JourneyDeps): Promise<number> {
  const at = deps.clock();
  const minute = Math.floor(at.getTime() / 60_000);
  let scans = dateScans.get(deps.db);
  if (!scans) dateScans.set(deps.db, (scans = new Map()));
  let stored = 0;
  for (const journey of await repo.liveJourneysStartingOn(deps.db, 'date')) {
    if (journey.liveVersion === null || scans.get(journey.id) === minute) continue;
    scans.set(journey.id, minute);
    const graph = await graphOf(deps, deps.db, journey.id, journey.liveVersion);
    const trigger = graph?.nodes.find((n) => n.type === 'trigger');
    if (trigger?.type !== 'trigger' || trigger.config.kind !== 'date') continue;
    const { local_time: localTime } = trigger.config;
    const field = dateFieldKey(trigger.config.field);
    const monthDays = monthDaysAround(at);
    for (let after = 0; ;) {
      const page = await deps.ports.customersWithDateOn(
        deps.db,
        journey.businessId,
        field,
        monthDays,
        after,
        DATE_PAGE,
      );
      const events: (repo.NewEvent & { idempotencyKey: string })[] = [];
      for (const customer of page) {
        const md = monthDayOf(customer.fields[field]);
        if (!md) continue;
        const zone = await deps.ports.zoneOf(deps.db, journey.businessId, customer);
        const local = new TZDate(at.getTime(), zone);
        const [y, m, d] = [local.getFullYear(), local.getMonth() + 1, local.getDate()];
        if (!comesRound(md, y, m, d)) continue;
        if (`${pad(local.getHours())}:${pad(local.getMinutes())}` < localTime) continue;
        const day = `${y}-${pad(m)}-${pad(d)}`;
        events.push({
          businessId: journey.businessId,
          customerId: customer.id,
          name: dateEventName(journey.id),
          properties: { field, date: customer.fields[field], local_date: day, zone },
          occurredAt: at,
          idempotencyKey: `${dateEventName(journey.id)}:${customer.id}:${day}`,
        });
      }
      stored += await repo.insertKeyedTitanEvents(deps.db, events);
      if (page.length < DATE_PAGE) break;
      after = page.at(-1)!.id;
    }
  }
  return stored;
}

// ---- Segments ----

/** When each segment journey was last scanned (clock minutes), per database. */
const segmentScans = new WeakMap<object, Map<number, number>>();
const SEGMENT_PAGE = 500;

/**
 * Segment triggers: each live journey starting on a segment compares the segment with who was in
 * it at its last scan (journey_segment_members). Everyone found and not recorded entered it: they
 * are recorded and get the journey's own event, in one transaction (a second worker finds them
 * recorded, so the event is made once). Those recorded whom the segment no longer matches left it:
 * their row goes, and coming back enters them again under the re-entry rule. Everyone in the
 * segment when the journey goes live enters. At most one scan a clock minute per journey.
 */
export async function scanSegments(deps: JourneyDeps): Promise<number> {
  const at = deps.clock();
  const minute = Math.floor(at.getTime() / 60_000);
  let scans = segmentScans.get(deps.db);
  if (!scans) segmentScans.set(deps.db, (scans = new Map()));
  let entered = 0;
  for (const journey of await repo.liveJourneysStartingOn(deps.db, 'segment')) {
    if (journey.liveVersion === null || scans.get(journey.id) === minute) continue;
    scans.set(journey.id, minute);
    const graph = await graphOf(deps, deps.db, journey.id, journey.liveVersion);
    const trigger = graph?.nodes.find((n) => n.type === 'trigger');
    if (trigger?.type !== 'trigger' || trigger.config.kind !== 'segment') continue;
    const filter = await deps.ports.segmentOf(deps.db, journey.businessId, trigger.config.segment_id);
    if (!filter) continue; // the segment was deleted: nobody enters
    // Who left.
    for (let after = 0; ;) {
      const ids = await repo.segmentMemberIds(deps.db, journey.id, after, SEGMENT_PAGE);
      if (ids.length === 0) break;
      const still = new Set(
        await deps.ports.segmentCustomerIdsAmong(deps.db, journey.businessId, filter, ids),
      );
      await repo.removeSegmentMembers(
        deps.db,
        journey.id,
        ids.filter((id) => !still.has(id)),
      );
      if (ids.length < SEGMENT_PAGE) break;
      after = ids.at(-1)!;
    }
    // Who entered.
    for (let after = 0; ;) {
      const ids = await deps.ports.segmentCustomerIds(
        deps.db,
        journey.businessId,
        filter,
        after,
        SEGMENT_PAGE,
      );
      if (ids.length === 0) break;
      entered += await deps.db.transaction(async (tx) => {
        const added = await repo.addSegmentMembers(tx, journey, ids, at);
        return repo.insertKeyedTitanEvents(
          tx,
          added.map((customerId) => ({
            businessId: journey.businessId,
            customerId,
            name: segmentEventName(journey.id),
            properties: { segment_id: trigger.config.kind === 'segment' ? trigger.config.segment_id : null },
            occurredAt: at,
            idempotencyKey: `${segmentEventName(journey.id)}:${customerId}:${at.getTime()}`,
          })),
        );
      });
      if (ids.length < SEGMENT_PAGE) break;
      after = ids.at(-1)!;
    }
  }
  return entered;
}

// ---- Unanswered conversations ----

/** When each (business, event) was last scanned (clock minutes), per database. */
const unansweredScans = new WeakMap<object, Map<string, number>>();
const UNANSWERED_PAGE = 500;
/**
 * How long after its N hours a waiting conversation is still told: a scan that did not run for a
 * while catches up, and a journey put live does not take in conversations left unanswered for weeks.
 */
export const UNANSWERED_LOOKBACK_MS = 24 * 3600_000;

/**
 * `conversation.unanswered.<N>h`: for each business whose journeys listen for it, its active
 * conversations whose customer has waited N hours (and not more than a day beyond) get the event,
 * keyed by conversation and the moment the wait began — stored once however many workers scan and
 * however often; an answer ends the wait, so the customer's next unanswered message starts a new
 * one (and a new event). At most one scan a clock minute per business and N. Answers how many it stored.
 */
export async function scanUnanswered(deps: JourneyDeps): Promise<number> {
  const at = deps.clock();
  const minute = Math.floor(at.getTime() / 60_000);
  let scans = unansweredScans.get(deps.db);
  if (!scans) unansweredScans.set(deps.db, (scans = new Map()));
  let stored = 0;
  for (const { businessId, name } of await repo.unansweredListeners(deps.db)) {
    const hours = unansweredHoursOf(name);
    const key = `${businessId}:${name}`;
    if (hours === null || scans.get(key) === minute) continue;
    scans.set(key, minute);
    const cutoff = new Date(at.getTime() - hours * 3600_000);
    const from = new Date(cutoff.getTime() - UNANSWERED_LOOKBACK_MS);
    for (let after = 0; ;) {
      const page = await deps.ports.awaitingReply(deps.db, {
        businessId,
        from,
        cutoff,
        afterId: after,
        limit: UNANSWERED_PAGE,
      });
      stored += await repo.insertKeyedTitanEvents(
        deps.db,
        page.map((c) => ({
          businessId,
          customerId: c.customerId,
          name,
          properties: {
            conversation_id: c.id,
            channel: c.channel,
            hours,
            waiting_since: c.waitingSince.toISOString(),
          },
          occurredAt: new Date(c.waitingSince.getTime() + hours * 3600_000),
          idempotencyKey: `${name}:${c.id}:${c.waitingSince.getTime()}`,
        })),
      );
      if (page.length < UNANSWERED_PAGE) break;
      after = page.at(-1)!.id;
    }
  }
  return stored;
}

/**
 * A batch of events heard set-based, in the order hearEvent would hear them one by one: the live
 * journeys each starts, the loop guard, the locks (journey × customer, in the batch's order), the
 * runs started under the re-entry rule (one statement), their trigger steps and next steps (one),
 * then each event's waits ended. Answers the steps entered due at once.
 */
async function hearBatch(
  deps: JourneyDeps,
  tx: Queryable,
  events: repo.EventRow[],
  at: Date,
): Promise<number> {
  let due = 0;
  const journeysOn = new Map<string, repo.JourneyRow[]>();
  const starts: {
    event: repo.EventRow;
    journey: repo.JourneyRow;
    graph: TJourneyGraph;
    trigger: TJourneyNode;
  }[] = [];
  for (const event of events) {
    const key = `${event.businessId}:${event.name}`;
    let live = journeysOn.get(key);
    if (!live) journeysOn.set(key, (live = await repo.liveJourneysOn(tx, event.businessId, event.name)));
    for (const journey of live) {
      if (journey.liveVersion === null) continue;
      const graph = await graphOf(deps, tx, journey.id, journey.liveVersion);
      const trigger = graph?.nodes.find((n) => n.type === 'trigger');
      if (!graph || trigger?.type !== 'trigger') continue;
      const on = trigger.config;
      const startsOn =
        on.kind === 'event'
          ? on.event
          : on.kind === 'date'
            ? dateEventName(journey.id)
            : segmentEventName(journey.id);
      if (startsOn !== event.name) continue;
      const loop = loopOf(event, journey.id);
      if (loop) {
        await repo.noteLoopSkip(tx, event.origin!.step_id, journey.id, loop);
        continue;
      }
      starts.push({ event, journey, graph, trigger });
    }
  }
  // One start per journey and customer unless it re-enters always: a second event of the batch
  // would find the first one's run.
  const once = new Set<string>();
  const wanted = starts.filter(({ event, journey }) => {
    if (journey.reentry === 'always') return true;
    const key = `${journey.id}:${event.customerId}`;
    if (once.has(key)) return false;
    once.add(key);
    return true;
  });
  await repo.lockJourneyCustomers(
    tx,
    wanted.map(({ event, journey }) => ({ journeyId: journey.id, customerId: event.customerId })),
  );
  const runs = await repo.startRuns(
    tx,
    wanted.map(({ event, journey }) => ({
      businessId: event.businessId,
      journeyId: journey.id,
      version: journey.liveVersion!,
      customerId: event.customerId,
      triggerEventId: event.id,
      reentry: journey.reentry,
      at,
    })),
  );
  const started = new Map(runs.map((r) => [`${r.journeyId}:${r.triggerEventId}`, r]));
  const entered: { run: repo.RunRow; data: Record<string, unknown> }[] = [];
  const steps: repo.NewStep[] = [];
  const ends: { run: repo.RunRow; status: 'exited' | 'failed'; nodeId: string | null }[] = [];
  const lookups = directLookups(deps);
  for (const { event, journey, graph, trigger } of wanted) {
    const run = started.get(`${journey.id}:${event.id}`);
    if (!run) continue;
    entered.push({ run, data: { trigger_event: event.name, trigger_event_id: event.id } });
    steps.push({
      run,
      nodeId: trigger.id,
      status: 'passed',
      dueAt: null,
      detail: { event_id: event.id },
      at,
    });
    const entry = await planEnter(deps, tx, run, graph, nextOf(graph, trigger, null), at, 1, lookups);
    if (entry.step) steps.push(entry.step);
    if (entry.step?.status === 'waiting' && entry.step.dueAt) timerAt(deps, entry.step.dueAt);
    if (entry.end) ends.push({ run, ...entry.end });
    if (entry.due) due++;
  }
  await emitRunEvents(tx, 'journey.entered', entered, at);
  await repo.insertSteps(tx, steps);
  for (const status of ['exited', 'failed'] as const) {
    const these = ends.filter((e) => e.status === status);
    const ended = await repo.endRuns(
      tx,
      these.map((e) => e.run.id),
      status,
      at,
    );
    await emitRunEvents(
      tx,
      'journey.exited',
      these
        .filter((e) => ended.has(e.run.id))
        .map((e) => ({ run: e.run, data: { status, node_id: e.nodeId } })),
      at,
    );
  }
  // Waits of these customers for these events end by their "event" way out, event by event: only
  // the events whose customer has such a wait open (one lookup for the batch), and every event once
  // a wait ended (the step it entered may itself wait for an event of the batch).
  const waiting = await repo.customersWaitingFor(tx, events);
  let ended = false;
  for (const event of events) {
    if (!ended && !waiting.has(`${event.customerId}:${event.name}`)) continue;
    const entered = await endWaitsOn(deps, tx, event, at);
    due += entered.due;
    ended ||= entered.ended > 0;
  }
  return due;
}

/**
 * The customer's waits for this event end by their "event" way out. Answers the waits ended and
 * the steps entered due at once.
 */
async function endWaitsOn(
  deps: JourneyDeps,
  tx: Queryable,
  event: repo.EventRow,
  at: Date,
): Promise<{ ended: number; due: number }> {
  let due = 0;
  const steps = await repo.endWaitsFor(
    tx,
    {
      businessId: event.businessId,
      customerId: event.customerId,
      name: event.name,
      occurredAt: event.occurredAt,
      eventId: event.id,
    },
    at,
  );
  for (const step of steps) {
    const run = await repo.findRun(tx, step.runId);
    const graph = await graphOf(deps, tx, step.journeyId, step.version);
    const node = graph && nodeOf(graph, step.nodeId);
    if (!run || !graph || !node) continue;
    await stepCompleted(
      tx,
      run,
      node,
      node.id,
      { status: 'passed', outcome: 'event', detail: { event_id: event.id } },
      at,
    );
    if (await enter(deps, tx, run, graph, nextOf(graph, node, 'event'), at)) due++;
  }
  return { ended: steps.length, due };
}

/** Events not yet heard, a batch in one transaction. Answers how many it took. */
export async function hearEvents(deps: JourneyDeps): Promise<number> {
  const at = deps.clock();
  return deps.db.transaction(async (tx) => {
    const events = await repo.lockPendingEvents(tx, deps.batchSize);
    // By customer, then as they came: concurrent passes take their locks (journey × customer) in
    // the same order, so they wait for each other instead of deadlocking.
    const ordered = [...events].sort((a, b) => a.customerId - b.customerId || a.id - b.id);
    try {
      // The batch set-based, in a savepoint: should it fail, each event is heard alone below.
      await tx.transaction((sp) => hearBatch(deps, sp, ordered, at));
      await repo.markEventsProcessed(
        tx,
        events.map((e) => e.id),
        at,
      );
      return events.length;
    } catch (err) {
      deps.logger.warn(
        { err, events: events.length },
        'a batch of customer events failed; hearing them one by one',
      );
    }
    const hearing: Hearing = { journeysOn: new Map(), entered: [] };
    for (const event of ordered) {
      const entered: Hearing['entered'] = [];
      try {
        // A savepoint each: one event Titan cannot hear does not hold back the others.
        await tx.transaction((sp) => hearEvent(deps, sp, event, at, { ...hearing, entered }));
        hearing.entered.push(...entered);
      } catch (err) {
        deps.logger.error({ err, event_id: event.id }, 'a customer event could not be heard; it is skipped');
      }
    }
    await emitRunEvents(tx, 'journey.entered', hearing.entered, at);
    await repo.markEventsProcessed(
      tx,
      events.map((e) => e.id),
      at,
    );
    return events.length;
  });
}

// ---- Steps ----

type StepResult =
  | {
      status: 'passed' | 'exited' | 'failed';
      outcome: string | null;
      detail: Record<string, unknown> | null;
      /** A failed send step lets the customer go on (a send that could not be made is said why, not fatal). */
      goOn?: boolean;
    }
  /** Not yet: the step waits until `until` and is run again then (a text in quiet hours). */
  | { status: 'deferred'; until: Date; detail: Record<string, unknown> };

/** What a send step deferred by quiet hours says while it waits. */
export const QUIET_HOURS_WORDS = {
  waiting: (until: Date) =>
    `Quiet hours (${CAMPAIGN_QUIET_HOURS.start}–${CAMPAIGN_QUIET_HOURS.end}) on the customer's clock: sends at ${until.toISOString()}.`,
} as const;

function readField(customer: JourneyCustomer, event: repo.EventRow | null, field: string): unknown {
  if (field.startsWith('event.properties.'))
    return event?.properties[field.slice('event.properties.'.length)];
  if (field.startsWith('customer.fields.')) return customer.fields[field.slice('customer.fields.'.length)];
  const key = field.slice('customer.'.length);
  const details: Record<string, unknown> = {
    email: customer.email,
    phone: customer.phone,
    name: customer.name,
    external_id: customer.externalId,
    email_status: customer.emailStatus,
    sms_status: customer.smsStatus,
    whatsapp_status: customer.whatsappStatus,
  };
  return details[key];
}

export function ruleHolds(rule: TJourneyRule, value: unknown): boolean {
  const present = value !== undefined && value !== null && value !== '';
  if (rule.op === 'exists') return present;
  if (rule.op === 'not_exists') return !present;
  if (!present) return rule.op === 'neq';
  const want = rule.value;
  const asNumbers = typeof want === 'number' || (typeof value === 'number' && !Number.isNaN(Number(want)));
  const a = asNumbers ? Number(value) : String(value);
  const b = asNumbers ? Number(want) : String(want ?? '');
  switch (rule.op) {
    case 'eq':
      return typeof want === 'boolean' ? value === want || String(value) === String(want) : a === b;
    case 'neq':
      return !(typeof want === 'boolean' ? value === want || String(value) === String(want) : a === b);
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    case 'lte':
      return a <= b;
    case 'contains':
      return String(value)
        .toLowerCase()
        .includes(String(want ?? '').toLowerCase());
  }
}

/** A split's way out for a run: the same every time it is asked (a hash of run and node). */
export function splitIndex(weights: number[], runId: number, nodeId: string): number {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0) return 0;
  const h = createHash('sha256').update(`${runId}:${nodeId}`).digest().readUInt32BE(0) / 2 ** 32;
  let acc = 0;
  for (const [i, w] of weights.entries()) {
    acc += w / total;
    if (h < acc) return i;
  }
  return weights.length - 1;
}

async function execute(
  deps: JourneyDeps,
  tx: Queryable,
  step: repo.StepRow,
  run: repo.RunRow,
  node: TJourneyNode,
  dispatch: { id: string; channel: SendChannel }[],
  after: { agentRuns: string[] },
  lookups: Lookups,
): Promise<StepResult> {
  switch (node.type) {
    case 'wait':
      // A due wait: its timer ran out (an event would have ended it first).
      return {
        status: 'passed',
        outcome: node.config.kind === 'until_event' ? 'timeout' : null,
        detail: null,
      };
    case 'trigger':
      return { status: 'passed', outcome: null, detail: null };
    case 'exit':
      return { status: 'exited', outcome: null, detail: null };
    case 'branch': {
      if (node.config.kind === 'split') {
        return {
          status: 'passed',
          outcome: String(splitIndex(node.config.weights, run.id, node.id)),
          detail: null,
        };
      }
      const customer = await lookups.customer(tx, run);
      if (!customer)
        return { status: 'failed', outcome: null, detail: { reason: 'The customer no longer exists.' } };
      const event = await lookups.event(tx, run);
      const yes = node.config.rules.every((r) => ruleHolds(r, readField(customer, event, r.field)));
      return { status: 'passed', outcome: yes ? 'yes' : 'no', detail: null };
    }
    case 'send': {
      const customer = await lookups.customer(tx, run);
      if (!customer)
        return { status: 'failed', outcome: null, detail: { reason: 'The customer no longer exists.' } };
      // A text waits out quiet hours on the customer's clock, as a campaign's does (a test run, whose
      // clock runs fast, sends at once).
      if (node.config.channel !== 'email' && !run.clockSpeed) {
        const until = await deps.ports.quietHoursEnd(tx, run.businessId, customer, deps.clock());
        if (until) return { status: 'deferred', until, detail: { reason: QUIET_HOURS_WORDS.waiting(until) } };
      }
      const sent = await deps.ports.recordSend(tx, {
        businessId: run.businessId,
        customer,
        config: node.config,
        idempotencyKey: `journey:${run.id}:${node.id}:${step.visit}`,
        causeId: String(run.journeyId),
        memo: lookups.memo,
      });
      if (sent.dispatch && sent.sendId) dispatch.push({ id: sent.sendId, channel: sent.channel });
      const made = sent.sendId !== null && !['suppressed', 'failed', 'cancelled'].includes(sent.status);
      return {
        status: made ? 'passed' : 'failed',
        outcome: null,
        detail: { send_id: sent.sendId, send_status: sent.status, reason: sent.reason },
        goOn: true,
      };
    }
    case 'update': {
      // In the step's transaction: the change and the step's passing commit together. The events
      // it causes (label.added, list.joined…) carry the chain of journeys that led here: the loop guard.
      const event = await lookups.event(tx, run);
      await repo.setEventOrigin(tx, {
        journeys: [...(event?.origin?.journeys ?? []), run.journeyId],
        step_id: step.id,
      });
      await deps.ports.updateCustomer(tx, run.businessId, run.customerId, node.config);
      await repo.setEventOrigin(tx, null);
      return { status: 'passed', outcome: null, detail: null };
    }
    case 'webhook':
      return callWebhook(deps, tx, step, run, node.id, node.config.url, lookups);
    case 'conversation': {
      // In the step's transaction: the conversation (opened or found) and the step commit together.
      const opened = await deps.ports.openConversation(tx, {
        businessId: run.businessId,
        customerId: run.customerId,
        config: node.config,
        title: await conversationTitle(tx, run, lookups),
      });
      return {
        status: 'passed',
        outcome: null,
        detail: { conversation_id: opened.conversationId, created: opened.created },
      };
    }
    case 'agent': {
      // The agent's run for this customer alone, recorded with the step under the step's key: a
      // step taken again after a crash finds its run instead of starting another. Its guardrails
      // (consent, caps, quiet hours, review or dry run) decide what reaches the customer.
      const customer = await lookups.customer(tx, run);
      if (!customer)
        return { status: 'failed', outcome: null, detail: { reason: 'The customer no longer exists.' } };
      const started = await deps.ports.startAgentRun(tx, {
        businessId: run.businessId,
        agentId: node.config.agent_id,
        ...(node.config.channel ? { channel: node.config.channel } : {}),
        customerId: run.customerId,
        idempotencyKey: `journey:${run.id}:${node.id}:${step.visit}`,
        at: deps.clock(),
      });
      if (started.runId === null)
        return {
          status: 'failed',
          outcome: null,
          detail: { agent_id: node.config.agent_id, agent_run_id: null, reason: started.reason },
          goOn: true,
        };
      if (started.created) after.agentRuns.push(started.runId);
      return {
        status: 'passed',
        outcome: null,
        detail: { agent_id: node.config.agent_id, agent_run_id: started.runId, channel: started.channel },
      };
    }
  }
}

/** A conversation a journey opens is titled after the journey (and its trigger event). */
async function conversationTitle(tx: Queryable, run: repo.RunRow, lookups: Lookups): Promise<string> {
  const event = await lookups.event(tx, run);
  return event ? `Journey ${run.journeyId}: ${event.name}` : `Journey ${run.journeyId}`;
}

/**
 * A webhook step: the customer, the journey and its trigger event POSTed as JSON through the SSRF
 * gate, with the step's key (`journey:<run>:<node>:<visit>`) as `idempotency-key` — a call repeated
 * after a worker died carries the same key. A call that fails is said why; the customer goes on.
 */
async function callWebhook(
  deps: JourneyDeps,
  tx: Queryable,
  step: repo.StepRow,
  run: repo.RunRow,
  nodeId: string,
  url: string,
  lookups: Lookups,
): Promise<StepResult> {
  const customer = await lookups.customer(tx, run);
  if (!customer)
    return { status: 'failed', outcome: null, detail: { reason: 'The customer no longer exists.' } };
  const event = await lookups.event(tx, run);
  const idempotencyKey = `journey:${run.id}:${nodeId}:${step.visit}`;
  const body = JSON.stringify({
    type: 'journey.webhook',
    timestamp: deps.clock().toISOString(),
    data: {
      journey_id: run.journeyId,
      version: run.version,
      run_id: run.id,
      node_id: nodeId,
      customer: {
        id: customer.id,
        name: customer.name,
        email: customer.email,
        phone: customer.phone,
        external_id: customer.externalId,
        fields: customer.fields,
      },
      event: event
        ? { id: event.id, name: event.name, properties: event.properties, occurred_at: event.occurredAt }
        : null,
    },
  });
  const answer = await deps.ports.callWebhook({ url, body, idempotencyKey });
  return answer.ok
    ? { status: 'passed', outcome: null, detail: { http_status: answer.status } }
    : {
        status: 'failed',
        outcome: null,
        detail: { http_status: answer.status, reason: answer.reason },
        goOn: true,
      };
}

function reasonOf(err: unknown): string {
  if (err instanceof AppError) {
    const fields =
      err.result && typeof err.result === 'object'
        ? Object.values(err.result as Record<string, unknown>).flatMap((v) =>
            Array.isArray(v) ? v.map(String) : [],
          )
        : [];
    return [err.message, ...fields.filter((f) => f !== err.message)].join(' ');
  }
  return err instanceof Error ? err.message : String(err);
}

/** Runs one claimed step in its own transaction; answers whether it entered a step due at once. */
async function runStep(deps: JourneyDeps, claimed: repo.StepRow): Promise<boolean> {
  const at = deps.clock();
  const dispatch: { id: string; channel: SendChannel }[] = [];
  const after = { agentRuns: [] as string[] };
  let dueNext = false;
  try {
    await deps.db.transaction(async (tx) => {
      const step = await repo.lockClaimedStep(tx, claimed.id, claimed.leaseUntil!);
      if (!step) return; // an event ended it, or its lease ran out and another worker has it
      const run = await repo.findRun(tx, step.runId);
      const graph = await graphOf(deps, tx, step.journeyId, step.version);
      const node = graph && nodeOf(graph, step.nodeId);
      if (!run || !graph || !node) {
        await repo.finishStep(
          tx,
          step.id,
          { status: 'failed', outcome: null, detail: { reason: 'The step no longer exists.' } },
          at,
        );
        if (run) await endRun(tx, run, 'failed', at, step.nodeId);
        return;
      }
      after.agentRuns.length = 0;
      const result = await execute(deps, tx, step, run, node, dispatch, after, directLookups(deps));
      if (result.status === 'deferred') {
        await repo.deferStep(tx, step.id, result.until, result.detail);
        return;
      }
      await repo.finishStep(tx, step.id, result, at);
      await stepCompleted(tx, run, node, node.id, result, at);
      if (result.status === 'passed' || (result.status === 'failed' && result.goOn)) {
        dueNext = await enter(deps, tx, run, graph, nextOf(graph, node, result.outcome), at);
      } else {
        await endRun(tx, run, result.status, at, node.id);
      }
    });
  } catch (err) {
    // A refusal Titan can explain (no quota, a template gone): the step fails with it. Anything
    // else leaves the step under its lease, to be taken again when the lease runs out — up to
    // STEP_ATTEMPTS takes; then it fails for good, naming the error, rather than wait unseen.
    if (!(err instanceof AppError) && claimed.attempts < STEP_ATTEMPTS) {
      deps.logger.error(
        { err, step_id: claimed.id, attempt: claimed.attempts },
        'journey step failed; it will be retried',
      );
      return false;
    }
    if (!(err instanceof AppError))
      deps.logger.error({ err, step_id: claimed.id }, 'journey step failed for good after its last attempt');
    await deps.db.transaction(async (tx) => {
      const step = await repo.lockClaimedStep(tx, claimed.id, claimed.leaseUntil!);
      if (!step) return;
      const reason = err instanceof AppError ? reasonOf(err) : STEP_ATTEMPTS_WORDS(claimed.attempts, err);
      const failed = { status: 'failed' as const, outcome: null, detail: { reason } };
      await repo.finishStep(tx, step.id, failed, at);
      const run = await repo.findRun(tx, step.runId);
      if (!run) return;
      const graph = await graphOf(deps, tx, step.journeyId, step.version);
      await stepCompleted(tx, run, graph && nodeOf(graph, step.nodeId), step.nodeId, failed, at);
      await endRun(tx, run, 'failed', at, step.nodeId);
    });
    return false;
  }
  if (dispatch.length > 0) await deps.ports.dispatchSends(dispatch);
  if (after.agentRuns.length > 0) await deps.ports.dispatchAgentRuns(after.agentRuns);
  return dueNext;
}

// ---- Batches ----

/** Steps that call out of Titan (HTTP): each runs in its own transaction, outside a batch. */
const CALLS_OUT = new Set<TJourneyNode['type']>(['webhook']);
/** Steps that write beyond the ledger: each in a savepoint of its batch, so one refused does not undo the rest. */
const WRITES = new Set<TJourneyNode['type']>(['send', 'update', 'conversation', 'agent']);

/** Whether a step at this node reads the run's customer / its trigger event. */
const readsCustomer = (node: TJourneyNode) =>
  node.type === 'send' ||
  node.type === 'agent' ||
  (node.type === 'branch' && node.config.kind !== 'split') ||
  (node.type === 'wait' && node.config.kind === 'until_time');
const readsEvent = (node: TJourneyNode) =>
  node.type === 'update' ||
  node.type === 'conversation' ||
  (node.type === 'branch' && node.config.kind !== 'split');

/** A batch's reads: its customers and trigger events fetched once (set-based), any other read as asked. */
async function batchLookups(
  deps: JourneyDeps,
  tx: Queryable,
  work: { run: repo.RunRow; node: TJourneyNode }[],
): Promise<Lookups> {
  const customers = new Map<number, JourneyCustomer | null>();
  const events = new Map<number, repo.EventRow | null>();
  const byBusiness = new Map<number, Set<number>>();
  for (const { run, node } of work) {
    if (!readsCustomer(node)) continue;
    let ids = byBusiness.get(run.businessId);
    if (!ids) byBusiness.set(run.businessId, (ids = new Set()));
    ids.add(run.customerId);
  }
  for (const [businessId, ids] of byBusiness) {
    for (const id of ids) customers.set(id, null);
    for (const c of await deps.ports.findCustomers(tx, businessId, [...ids])) customers.set(c.id, c);
  }
  const eventIds = work
    .filter((w) => readsEvent(w.node) && w.run.triggerEventId)
    .map((w) => w.run.triggerEventId!);
  for (const id of eventIds) events.set(id, null);
  for (const e of await repo.findEvents(tx, eventIds)) events.set(e.id, e);
  const direct = directLookups(deps);
  return {
    memo: new Map(),
    async customer(db, run) {
      if (!customers.has(run.customerId)) customers.set(run.customerId, await direct.customer(db, run));
      return customers.get(run.customerId)!;
    },
    async event(db, run) {
      if (!run.triggerEventId) return null;
      if (!events.has(run.triggerEventId)) events.set(run.triggerEventId, await direct.event(db, run));
      return events.get(run.triggerEventId)!;
    },
  };
}

/** Many `journey.*` webhook events of one type: one lookup of the businesses listening. */
async function emitRunEvents(
  tx: Queryable,
  type: JourneyWebhookType,
  items: { run: repo.RunRow; data: Record<string, unknown> }[],
  at: Date,
): Promise<void> {
  await recordEventsOfType(
    tx,
    type,
    items.map((i) => ({ businessId: i.run.businessId, ...i })),
    ({ run, data }) => ({
      objectKey: `journey_run:${run.id}`,
      at,
      data: {
        journey_id: run.journeyId,
        version: run.version,
        run_id: run.id,
        customer_id: run.customerId,
        ...data,
      },
    }),
  );
}

/**
 * A claim's steps in one transaction: the steps locked (still under this worker's lease), their runs,
 * customers and trigger events read once for all, each step run (a send, update, conversation or
 * agent step in a savepoint of its own), then the steps finished, the next ones entered and the
 * ended runs ended, a statement each. A crash anywhere before the commit leaves every step under its
 * lease, to be taken again (no send was kept). Answers the sends and agent runs to hand on after the commit.
 */
async function runBatch(
  deps: JourneyDeps,
  claimed: repo.StepRow[],
  leaseUntil: Date,
): Promise<{ dispatch: { id: string; channel: SendChannel }[]; agentRuns: string[] }> {
  const at = deps.clock();
  const dispatch: { id: string; channel: SendChannel }[] = [];
  const agentRuns: string[] = [];
  const waits: Date[] = [];
  await deps.db.transaction(async (tx) => {
    const steps = await repo.lockClaimedSteps(
      tx,
      claimed.map((s) => s.id),
      leaseUntil,
    );
    if (steps.length === 0) return;
    const runs = new Map(
      (
        await repo.findRuns(
          tx,
          steps.map((s) => s.runId),
        )
      ).map((r) => [r.id, r]),
    );
    const work: { step: repo.StepRow; run: repo.RunRow; graph: TJourneyGraph; node: TJourneyNode }[] = [];
    const finished: Parameters<typeof repo.finishSteps>[1] = [];
    const completed: { run: repo.RunRow; data: Record<string, unknown> }[] = [];
    const entered: repo.NewStep[] = [];
    const ends: { run: repo.RunRow; status: 'exited' | 'failed'; nodeId: string | null }[] = [];
    for (const step of steps) {
      const run = runs.get(step.runId);
      const graph = await graphOf(deps, tx, step.journeyId, step.version);
      const node = graph && nodeOf(graph, step.nodeId);
      if (run && graph && node) {
        work.push({ step, run, graph, node });
        continue;
      }
      finished.push({
        id: step.id,
        status: 'failed',
        outcome: null,
        detail: { reason: 'The step no longer exists.' },
      });
      if (run) ends.push({ run, status: 'failed', nodeId: step.nodeId });
    }
    const lookups = await batchLookups(deps, tx, work);
    // The frequency cap's per-customer locks for every send step of the batch, in ascending customer
    // order before any step takes its own: two batches sharing customers wait instead of deadlocking.
    const sending = work.filter((w) => w.node.type === 'send');
    if (sending.length > 1)
      await deps.ports.holdFrequencyCapLocks(
        tx,
        sending.map((w) => ({ businessId: w.run.businessId, customerId: w.run.customerId })),
      );
    for (const { step, run, graph, node } of work) {
      const mine = { dispatch: [] as typeof dispatch, after: { agentRuns: [] as string[] } };
      let result: StepResult;
      if (WRITES.has(node.type)) {
        try {
          result = await tx.transaction((sp) =>
            execute(deps, sp, step, run, node, mine.dispatch, mine.after, lookups),
          );
        } catch (err) {
          // A refusal Titan can explain fails the step with it; anything else leaves the step under
          // its lease, to be taken again when the lease runs out — up to STEP_ATTEMPTS takes.
          if (!(err instanceof AppError) && step.attempts < STEP_ATTEMPTS) {
            deps.logger.error(
              { err, step_id: step.id, attempt: step.attempts },
              'journey step failed; it will be retried',
            );
            continue;
          }
          const reason = err instanceof AppError ? reasonOf(err) : STEP_ATTEMPTS_WORDS(step.attempts, err);
          result = { status: 'failed', outcome: null, detail: { reason } };
        }
      } else {
        result = await execute(deps, tx, step, run, node, mine.dispatch, mine.after, lookups);
      }
      dispatch.push(...mine.dispatch);
      agentRuns.push(...mine.after.agentRuns);
      if (result.status === 'deferred') {
        await repo.deferStep(tx, step.id, result.until, result.detail);
        waits.push(result.until);
        continue;
      }
      finished.push({ id: step.id, status: result.status, outcome: result.outcome, detail: result.detail });
      completed.push({
        run,
        data: {
          node_id: node.id,
          node_type: node.type,
          status: result.status,
          outcome: result.outcome,
          send_id: (result.detail?.send_id as string | null | undefined) ?? null,
          reason: (result.detail?.reason as string | null | undefined) ?? null,
        },
      });
      if (result.status === 'passed' || (result.status === 'failed' && result.goOn)) {
        const next = nextOf(graph, node, result.outcome);
        const entry = await planEnter(deps, tx, run, graph, next, at, 1, lookups);
        if (entry.step) entered.push(entry.step);
        if (entry.step?.status === 'waiting' && entry.step.dueAt) waits.push(entry.step.dueAt);
        if (entry.end) ends.push({ run, ...entry.end });
      } else {
        ends.push({ run, status: result.status, nodeId: node.id });
      }
    }
    await repo.finishSteps(tx, finished, at);
    await emitRunEvents(tx, 'journey.step_completed', completed, at);
    await repo.insertSteps(tx, entered);
    for (const status of ['exited', 'failed'] as const) {
      const these = ends.filter((e) => e.status === status);
      const ended = await repo.endRuns(
        tx,
        these.map((e) => e.run.id),
        status,
        at,
      );
      await emitRunEvents(
        tx,
        'journey.exited',
        these
          .filter((e) => ended.has(e.run.id))
          .map((e) => ({ run: e.run, data: { status, node_id: e.nodeId } })),
        at,
      );
    }
  });
  for (const due of waits) timerAt(deps, due);
  return { dispatch, agentRuns };
}

/**
 * Due steps, claimed (skip locked, under a lease) and run: a claim's steps in one batch, a step
 * calling out (a webhook) in its own transaction. A batch that fails as a whole (not a refusal a
 * step can be failed with) is run again step by step, each in its own transaction. Answers how
 * many it claimed.
 */
export async function advanceSteps(deps: JourneyDeps): Promise<number> {
  const now = deps.clock();
  const leaseUntil = new Date(now.getTime() + deps.leaseMs);
  const claimed = await repo.claimDueSteps(deps.db, now, leaseUntil, deps.batchSize);
  const alone: repo.StepRow[] = [];
  const batch: repo.StepRow[] = [];
  for (const step of claimed) {
    const graph = await graphOf(deps, deps.db, step.journeyId, step.version);
    const node = graph && nodeOf(graph, step.nodeId);
    (node && CALLS_OUT.has(node.type) ? alone : batch).push(step);
  }
  if (batch.length > 0) {
    let done: Awaited<ReturnType<typeof runBatch>> | null = null;
    try {
      done = await runBatch(deps, batch, leaseUntil);
    } catch (err) {
      deps.logger.warn(
        { err, steps: batch.length },
        'a batch of journey steps failed; running them one by one',
      );
      for (const step of batch) await runStep(deps, step);
    }
    // Handed on after the commit: a worker killed before this leaves them to the spine's recovery.
    if (done && done.dispatch.length > 0) await deps.ports.dispatchSends(done.dispatch);
    if (done && done.agentRuns.length > 0) await deps.ports.dispatchAgentRuns(done.agentRuns);
  }
  for (const step of alone) await runStep(deps, step);
  if (claimed.length < deps.batchSize) {
    // The queue is empty for now: the loop wakes when the next wait comes due.
    const next = await repo.nextDueAt(deps.db, now);
    if (next) timerAt(deps, next);
  }
  return claimed.length;
}

// ---- Pace ----

/** How far ahead a pass looks before hearing more events: steps due by then are work already owed. */
export const HEAR_AHEAD_MS = 1_000;
/** Steps owed within HEAR_AHEAD_MS that never hold hearing back, whatever the pace measured. */
export const HEAR_OWED_FLOOR = 200;
/**
 * The share of its pace the loop may owe within HEAR_AHEAD_MS: each heard customer's wait brings
 * the steps after it (a branch, a send) when it passes, and the pace falls while events are posted
 * (the API shares the CPU) — half leaves room for both.
 */
const HEAR_PACE_SHARE = 0.5;
/** Over how long this process's pace (steps claimed per second) is measured. */
const PACE_WINDOW_MS = 2_000;
/** Per database: this process's claims lately (when, how many). */
const paces = new WeakMap<object, { at: number; n: number }[]>();

function notePace(deps: JourneyDeps, n: number): void {
  let seen = paces.get(deps.db);
  if (!seen) paces.set(deps.db, (seen = []));
  const now = Date.now();
  if (n > 0) seen.push({ at: now, n });
  while (seen.length > 0 && seen[0]!.at < now - PACE_WINDOW_MS) seen.shift();
}

/** Steps this process claimed per second over the last PACE_WINDOW_MS. */
function paceOf(deps: JourneyDeps): number {
  const seen = paces.get(deps.db) ?? [];
  return (seen.reduce((sum, s) => sum + s.n, 0) * 1000) / PACE_WINDOW_MS;
}

/**
 * Whether a pass may hear events: while the steps due within HEAR_AHEAD_MS (waits coming due
 * included) are fewer than half what the loop runs in that time (its recent pace; at least
 * HEAR_OWED_FLOOR),
 * else events wait, stored, for a pass with room. Each heard event starts a wait that comes due a
 * moment later with the steps after it: hearing whenever the steps due *now* were caught up let
 * thousands of waits come due in the same second, and every timer passed seconds late.
 */
async function roomToHear(deps: JourneyDeps): Promise<boolean> {
  const owedAtMost = Math.max(
    HEAR_OWED_FLOOR,
    Math.ceil((paceOf(deps) * HEAR_PACE_SHARE * HEAR_AHEAD_MS) / 1000),
  );
  const by = new Date(deps.clock().getTime() + HEAR_AHEAD_MS);
  return (await repo.countDueBy(deps.db, by, owedAtMost)) < owedAtMost;
}

/**
 * One pass of the loop: dates come round, due steps run, then events heard — unless a full batch
 * of steps was due, or the steps coming due within HEAR_AHEAD_MS already fill the loop's pace
 * (roomToHear). Due work comes first: each heard event adds steps (a wait, a branch, a send)
 * faster than a pass of the same batch size runs them, so hearing at the steps' pace let a backlog
 * grow behind every timer while events kept arriving (waits passed seconds late). Events wait for a
 * pass that finds the steps caught up; steps come only from heard events and timers, so they do.
 */
export async function runJourneyPass(deps: JourneyDeps): Promise<number> {
  await scanDates(deps);
  await scanSegments(deps);
  await scanUnanswered(deps);
  const advanced = await advanceSteps(deps);
  notePace(deps, advanced);
  const heard = advanced < deps.batchSize && (await roomToHear(deps)) ? await hearEvents(deps) : 0;
  return heard + advanced;
}

/** Passes until nothing is due at the clock's time (tests and the test mode drive time with it). */
export async function drainJourneys(deps: JourneyDeps, maxPasses = 100): Promise<void> {
  for (let i = 0; i < maxPasses; i++) if ((await runJourneyPass(deps)) === 0) return;
}
