// Journeys (issue 32): a business's journeys, their versions, publish and pause, the per-step
// counts and a customer's path; and customer events — posted ones (once per idempotency key) and
// Titan's own facts (`emitCustomerEvents`, called inside the emitting module's transaction).
import {
  EVENT_ERRORS,
  JOURNEY_ERRORS,
  SEGMENT_FIELD_KEY_PATTERN,
  type TCustomerEventAccepted,
  type TEventCustomer,
  type TJourney,
  type TJourneyCustomerPath,
  type TJourneyGoal,
  type TJourneyGraph,
  type TJourneyMoveResult,
  type TJourneyReentry,
  type TJourneyStats,
  type TTitanCustomerEvent,
  ZJourneyGraph,
} from '@titan/contracts';
import type { Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { JourneyDeps } from './journeys.deps';
import {
  dateEventName,
  dateFieldKey,
  graphOf,
  moveInFlight,
  segmentEventName,
  startTestRun,
} from './journeys.engine';
import * as repo from './journeys.repository';

// ---- Events ----

/** A fact Titan observed about a customer, for journeys to start on or wait for. */
export type TitanCustomerEvent = {
  businessId: number;
  customerId: number;
  name: TTitanCustomerEvent;
  properties?: Record<string, unknown>;
  /** When it happened; now by default. */
  at?: Date;
};

/**
 * Records Titan's facts as customer events in the caller's transaction: heard by journeys once that
 * transaction commits, never if it rolls back. Only events some journey of the business listens
 * for are kept (a business without journeys pays one indexed lookup).
 */
export async function emitCustomerEvents(tx: Queryable, ...events: TitanCustomerEvent[]): Promise<void> {
  await repo.insertTitanEvents(
    tx,
    events.map((e) => ({
      businessId: e.businessId,
      customerId: e.customerId,
      name: e.name,
      properties: e.properties ?? {},
      occurredAt: e.at ?? new Date(),
    })),
  );
}

/** The statuses of a channel that are customer events, and the events each stands for (read: delivered too). */
const STATUS_EVENTS: Record<'sms' | 'whatsapp', Record<string, TTitanCustomerEvent[]>> = {
  sms: { delivered: ['sms.delivered'] },
  whatsapp: { delivered: ['whatsapp.delivered'], read: ['whatsapp.delivered', 'whatsapp.read'] },
};

/**
 * A channel's provider statuses as they now stand on Titan's sends (the strongest per message), in
 * the transaction that applied them: `sms.delivered`, `whatsapp.delivered` and `whatsapp.read` of
 * the send's customer, once per send whatever the number of reports (a read implies delivered, so a
 * `read` that overtook its `delivered` still tells both).
 */
export async function emitSendStatusEvents(
  tx: Queryable,
  channel: 'sms' | 'whatsapp',
  statuses: { businessId: number; providerMessageId: string; type: string }[],
  at: Date = new Date(),
): Promise<void> {
  const events = statuses.flatMap((s) =>
    (STATUS_EVENTS[channel][s.type] ?? []).map((name) => ({
      businessId: s.businessId,
      providerMessageId: s.providerMessageId,
      name,
      occurredAt: at,
    })),
  );
  await repo.insertSendStatusEvents(tx, channel, events);
}

/** What an email's status or a person's open or click tells journeys (a click is an open too). */
const EMAIL_EVENTS: Record<string, TTitanCustomerEvent[]> = {
  sent: ['email.delivered'],
  delivered: ['email.delivered'],
  opened: ['email.delivered', 'email.opened'],
  clicked: ['email.delivered', 'email.opened', 'email.clicked'],
  complained: ['email.delivered'],
  bounced: ['email.bounced'],
};

/**
 * An email's new status (the recipient's server took it, or it bounced) or a person's open or
 * click (a status the send rose to: proxies, scanners and too-fast clicks never raise it), in the transaction that recorded it:
 * `email.delivered`, `email.bounced`, `email.opened` and `email.clicked` of the send's customer,
 * once per send and name whatever the number of hits.
 */
export async function emitEmailEngagementEvents(
  tx: Queryable,
  engagements: { sendId: string; type: string; occurredAt?: Date }[],
): Promise<void> {
  const at = new Date();
  const events = engagements.flatMap((e) =>
    (EMAIL_EVENTS[e.type] ?? []).map((name) => ({ sendId: e.sendId, name, occurredAt: e.occurredAt ?? at })),
  );
  await repo.insertEmailEngagementEvents(tx, events);
}

/** A send's statuses that say its provider took it (a stronger one may be the first Titan hears). */
const SENT_STATUSES = new Set(['accepted', 'sent', 'delivered', 'read', 'opened', 'clicked']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Sends whose status just changed, in the transaction that changed it: one of a campaign that its
 * provider took is `campaign.received` of its customer, one of an AI agent's run
 * `agent.delivery_sent` — once per send whatever the number of later statuses.
 */
export async function emitSentSendEvents(
  tx: Queryable,
  changes: {
    id: string;
    businessId: number;
    channel: string;
    cause: string;
    causeId: string | null;
    customerId: number | null;
    status: string;
  }[],
  at: Date = new Date(),
): Promise<void> {
  await repo.insertSentSendEvents(
    tx,
    changes.flatMap((c) =>
      (c.cause === 'broadcast' || c.cause === 'agent') &&
      c.customerId !== null &&
      c.causeId !== null &&
      UUID.test(c.causeId) &&
      SENT_STATUSES.has(c.status)
        ? [
            {
              sendId: c.id,
              businessId: c.businessId,
              customerId: c.customerId,
              channel: c.channel,
              cause: c.cause,
              causeId: c.causeId,
              occurredAt: at,
            },
          ]
        : [],
    ),
  );
}

/** `POST /api/events/`: stored once per idempotency key (a repeat is accepted, not stored again). */
export async function postEvent(
  deps: JourneyDeps,
  businessId: number,
  input: {
    name: string;
    customer: TEventCustomer;
    properties: Record<string, unknown>;
    idempotency_key?: string;
    occurred_at?: string;
  },
): Promise<TCustomerEventAccepted> {
  const customer = await deps.ports.findCustomer(deps.db, businessId, input.customer);
  if (!customer)
    throw new AppError('not_found', EVENT_ERRORS.customerNotFound, {
      customer: [EVENT_ERRORS.customerNotFound],
    });
  const stored = await repo.insertPostedEvent(deps.db, {
    businessId,
    customerId: customer.id,
    name: input.name,
    properties: input.properties,
    occurredAt: input.occurred_at ? new Date(input.occurred_at) : deps.clock(),
    idempotencyKey: input.idempotency_key ?? null,
  });
  if (stored.created) deps.wake();
  return stored;
}

// ---- Journeys ----

type JourneyInput = {
  name: string;
  graph: TJourneyGraph;
  reentry: TJourneyReentry;
  goal: TJourneyGoal | null;
};

function toJourney(row: repo.JourneyRow, graph: TJourneyGraph): TJourney {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    reentry: row.reentry,
    version: row.version,
    live_version: row.liveVersion,
    graph,
    goal: row.goal ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const notFound = () => new AppError('not_found', JOURNEY_ERRORS.notFound);

/**
 * What the engine cannot run, and objects the graph names that the business does not have (an
 * agent, a template, a list…): 400 or 404 (not found) with the dotted path of each bad field.
 */
async function checkRunnable(deps: JourneyDeps, businessId: number, graph: TJourneyGraph): Promise<void> {
  const bad: Record<string, string[]> = {};
  const missing: Record<string, string[]> = {};
  const at = (i: number, ...path: (string | number)[]) => ['graph', 'nodes', i, ...path].join('.');
  for (const [i, n] of graph.nodes.entries()) {
    if (n.type === 'webhook') {
      const problem = await deps.ports.webhookUrlProblem(n.config.url);
      if (problem) bad[at(i, 'config', 'url')] = [problem];
    } else if (n.type === 'conversation') {
      const c = n.config;
      if (c.chat_group_id && !(await deps.ports.chatGroupExists(deps.db, businessId, c.chat_group_id)))
        missing[at(i, 'config', 'chat_group_id')] = [JOURNEY_ERRORS.chatGroupNotFound];
      if (c.assignee_id && !(await deps.ports.memberExists(deps.db, businessId, c.assignee_id)))
        missing[at(i, 'config', 'assignee_id')] = [JOURNEY_ERRORS.memberNotFound];
    } else if (n.type === 'agent') {
      const channels = await deps.ports.agentChannels(deps.db, businessId, n.config.agent_id);
      if (channels === null) missing[at(i, 'config', 'agent_id')] = [JOURNEY_ERRORS.agentNotFound];
      else if (n.config.channel !== undefined && !channels.includes(n.config.channel))
        bad[at(i, 'config', 'channel')] = [JOURNEY_ERRORS.agentChannel(n.config.channel, channels)];
    } else if (n.type === 'trigger' && n.config.kind === 'segment') {
      if (!(await deps.ports.segmentOf(deps.db, businessId, n.config.segment_id)))
        missing[at(i, 'config', 'segment_id')] = [JOURNEY_ERRORS.segmentNotFound];
    } else if (n.type === 'trigger' && n.config.kind === 'date') {
      if (!SEGMENT_FIELD_KEY_PATTERN.test(dateFieldKey(n.config.field)))
        bad[at(i, 'config', 'field')] = [JOURNEY_ERRORS.dateField];
    } else if (n.type === 'send') {
      const c = n.config;
      if (c.channel === 'whatsapp' && !c.whatsapp_template)
        bad[at(i, 'config', 'whatsapp_template')] = [JOURNEY_ERRORS.whatsappTemplate];
      if (c.channel === 'whatsapp' && c.whatsapp_template) {
        const problems = await deps.ports.whatsappTemplateProblems(deps.db, businessId, c.whatsapp_template);
        if (problems.length > 0) bad[at(i, 'config', 'whatsapp_template')] = problems;
      }
      if (c.channel === 'email' && !c.from) bad[at(i, 'config', 'from')] = [JOURNEY_ERRORS.emailFrom];
      if (c.channel === 'email' && !c.template_id)
        bad[at(i, 'config', 'template_id')] = ['An email step sends a template: choose one.'];
      if (c.channel === 'sms' && !c.template_id && !c.body)
        bad[at(i, 'config', 'template_id')] = [JOURNEY_ERRORS.smsContent];
      if (c.template_id && !(await deps.ports.templateExists(deps.db, businessId, c.template_id)))
        missing[at(i, 'config', 'template_id')] = [JOURNEY_ERRORS.templateNotFound];
    } else if (n.type === 'update') {
      for (const key of ['add_list_ids', 'remove_list_ids'] as const)
        for (const [j, id] of (n.config[key] ?? []).entries())
          if (!(await deps.ports.staticListExists(deps.db, businessId, id)))
            missing[at(i, 'config', key, j)] = [JOURNEY_ERRORS.listNotFound];
      for (const [j, id] of (n.config.add_label_ids ?? []).entries())
        if (!(await deps.ports.labelExists(deps.db, businessId, id)))
          missing[at(i, 'config', 'add_label_ids', j)] = [JOURNEY_ERRORS.labelNotFound];
    }
  }
  if (Object.keys(missing).length > 0) throw new AppError('not_found', 'Not found.', { ...missing, ...bad });
  if (Object.keys(bad).length > 0) throw AppError.fields(bad);
}

/**
 * The events a graph starts on or waits for (a date trigger: the journey's own date event), and its
 * goal's event (kept so conversions can be counted).
 */
function eventNamesOf(graph: TJourneyGraph, journeyId: number, goal: TJourneyGoal | null): string[] {
  const names = new Set<string>(goal ? [goal.event] : []);
  for (const n of graph.nodes) {
    if (n.type === 'trigger' && n.config.kind === 'event') names.add(n.config.event);
    if (n.type === 'trigger' && n.config.kind === 'date') names.add(dateEventName(journeyId));
    if (n.type === 'trigger' && n.config.kind === 'segment') names.add(segmentEventName(journeyId));
    if (n.type === 'wait' && n.config.kind === 'until_event') names.add(n.config.event);
  }
  return [...names];
}

async function graphOfVersion(deps: JourneyDeps, row: repo.JourneyRow): Promise<TJourneyGraph> {
  const version = await repo.findVersion(deps.db, row.id, row.version);
  return version!.graph as unknown as TJourneyGraph;
}

export async function listJourneys(deps: JourneyDeps, businessId: number): Promise<TJourney[]> {
  const rows = await repo.listJourneys(deps.db, businessId);
  const versions = await repo.findVersions(
    deps.db,
    rows.map((r) => ({ journeyId: r.id, version: r.version })),
  );
  const byKey = new Map(
    versions.map((v) => [`${v.journeyId}:${v.version}`, v.graph as unknown as TJourneyGraph]),
  );
  return rows.map((r) => toJourney(r, byKey.get(`${r.id}:${r.version}`)!));
}

export async function getJourney(deps: JourneyDeps, businessId: number, id: number): Promise<TJourney> {
  const row = await repo.findJourney(deps.db, businessId, id);
  if (!row) throw notFound();
  return toJourney(row, await graphOfVersion(deps, row));
}

export async function createJourney(
  deps: JourneyDeps,
  businessId: number,
  createdBy: number | null,
  input: JourneyInput,
): Promise<TJourney> {
  await checkRunnable(deps, businessId, input.graph);
  const row = await deps.db.transaction((tx) =>
    repo.insertJourney(tx, {
      businessId,
      name: input.name,
      reentry: input.reentry,
      graph: input.graph as unknown as Record<string, unknown>,
      goal: input.goal,
      createdBy,
    }),
  );
  return toJourney(row, input.graph);
}

/**
 * A draft is changed in place; a journey published before gets a new version (customers in flight
 * finish on theirs), which new customers enter at once when the journey is live and at the next
 * publish when it is paused.
 */
export async function updateJourney(
  deps: JourneyDeps,
  businessId: number,
  id: number,
  input: JourneyInput,
): Promise<TJourney> {
  await checkRunnable(deps, businessId, input.graph);
  const graph = input.graph as unknown as Record<string, unknown>;
  const row = await deps.db.transaction(async (tx) => {
    const current = await repo.lockJourney(tx, businessId, id);
    if (!current) throw notFound();
    const newest = await repo.findVersion(tx, id, current.version);
    const version = newest?.publishedAt ? current.version + 1 : current.version;
    await repo.replaceVersion(tx, id, version, graph, input.reentry);
    const live = current.status === 'live';
    if (live) await repo.markVersionPublished(tx, id, version, deps.clock());
    return repo.updateJourney(tx, id, {
      name: input.name,
      reentry: input.reentry,
      goal: input.goal,
      version,
      ...(live
        ? {
            liveVersion: version,
            eventNames: [...new Set([...current.eventNames, ...eventNamesOf(input.graph, id, input.goal)])],
          }
        : {}),
    });
  });
  return toJourney(row, input.graph);
}

/** Makes the newest version live: new customers enter it from now on. */
export async function publishJourney(deps: JourneyDeps, businessId: number, id: number): Promise<TJourney> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await repo.lockJourney(tx, businessId, id);
    if (!current) throw notFound();
    const version = await repo.findVersion(tx, id, current.version);
    // Checked again: a graph saved before a step type left "not yet" stays refused until fixed.
    const graph = ZJourneyGraph.parse(version!.graph);
    await repo.markVersionPublished(tx, id, current.version, deps.clock());
    return repo.updateJourney(tx, id, {
      status: 'live',
      liveVersion: current.version,
      eventNames: [...new Set([...current.eventNames, ...eventNamesOf(graph, id, current.goal)])],
    });
  });
  deps.wake();
  return toJourney(row, await graphOfVersion(deps, row));
}

/**
 * Customers in flight on older versions go on in the live version at `toNode` (a step after the
 * trigger): 409 before the journey is published, 400 on `to_node` for a step the live version lacks.
 */
export async function moveJourneyInFlight(
  deps: JourneyDeps,
  businessId: number,
  id: number,
  toNode: string,
): Promise<TJourneyMoveResult> {
  const row = await repo.findJourney(deps.db, businessId, id);
  if (!row) throw notFound();
  if (row.liveVersion === null || row.status === 'draft')
    throw new AppError('conflict', JOURNEY_ERRORS.moveNotLive);
  const graph = await graphOf(deps, deps.db, id, row.liveVersion);
  const node = graph?.nodes.find((n) => n.id === toNode);
  if (!node) throw AppError.fields({ to_node: [JOURNEY_ERRORS.moveNode] });
  if (node.type === 'trigger') throw AppError.fields({ to_node: [JOURNEY_ERRORS.moveToTrigger] });
  return moveInFlight(deps, { id, liveVersion: row.liveVersion }, toNode);
}

/** No new customers enter and nobody moves on until it is published again. */
export async function pauseJourney(deps: JourneyDeps, businessId: number, id: number): Promise<TJourney> {
  const row = await deps.db.transaction(async (tx) => {
    const current = await repo.lockJourney(tx, businessId, id);
    if (!current) throw notFound();
    if (current.status !== 'live') throw new AppError('conflict', JOURNEY_ERRORS.notLive);
    return repo.updateJourney(tx, id, { status: 'paused' });
  });
  return toJourney(row, await graphOfVersion(deps, row));
}

export async function journeyStats(
  deps: JourneyDeps,
  businessId: number,
  id: number,
): Promise<TJourneyStats> {
  const row = await repo.findJourney(deps.db, businessId, id);
  if (!row) throw notFound();
  const graph = await graphOfVersion(deps, row);
  const nodes: TJourneyStats['nodes'] = {};
  const blank = () => ({ entered: 0, waiting: 0, passed: 0, exited: 0, failed: 0 });
  for (const n of graph.nodes) nodes[n.id] = blank();
  for (const c of await repo.stepCounts(deps.db, id)) {
    const s = (nodes[c.node_id] ??= blank());
    s.entered += c.n;
    if (c.status === 'pending' || c.status === 'waiting') s.waiting += c.n;
    else if (c.status === 'passed') s.passed += c.n;
    else if (c.status === 'exited') s.exited += c.n;
    else if (c.status === 'failed') s.failed += c.n;
  }
  const customers = { active: 0, exited: 0, failed: 0 };
  for (const c of await repo.runCounts(deps.db, id)) customers[c.status as keyof typeof customers] += c.n;
  const goal = row.goal ? { ...row.goal, ...(await repo.goalCounts(deps.db, id, row.goal)) } : null;
  const inFlight = row.liveVersion ? await repo.countRunsInFlight(deps.db, id, row.liveVersion) : 0;
  return { nodes, customers, in_flight_on_older_versions: inFlight, goal };
}

export async function customerPath(
  deps: JourneyDeps,
  businessId: number,
  id: number,
  customerId: number,
): Promise<TJourneyCustomerPath> {
  const row = await repo.findJourney(deps.db, businessId, id);
  if (!row) throw notFound();
  const [customer] = await deps.ports.findCustomers(deps.db, businessId, [customerId]);
  if (!customer) throw new AppError('not_found', JOURNEY_ERRORS.customerNotFound);
  const runs = await repo.runsOfCustomer(deps.db, id, customerId);
  const reached = row.goal
    ? await repo.goalReachedAt(
        deps.db,
        runs.map((r) => r.run.id),
        row.goal,
      )
    : new Map<number, Date>();
  const types = new Map<string, Map<string, string>>();
  const typeOf = async (version: number, nodeId: string) => {
    let map = types.get(String(version));
    if (!map) {
      const v = await repo.findVersion(deps.db, id, version);
      map = new Map(
        ((v?.graph as unknown as TJourneyGraph | undefined)?.nodes ?? []).map((n) => [n.id, n.type]),
      );
      types.set(String(version), map);
    }
    return map.get(nodeId) ?? null;
  };
  const out: TJourneyCustomerPath['runs'] = [];
  for (const { run, steps } of runs) {
    const shown = [];
    for (const s of steps) {
      const detail = s.detail ?? {};
      shown.push({
        node_id: s.nodeId,
        // The step's own version: a customer moved in flight has steps of two versions in one run.
        type: await typeOf(s.version, s.nodeId),
        status: s.status,
        outcome: s.outcome,
        reason: typeof detail.reason === 'string' ? detail.reason : null,
        send_id: typeof detail.send_id === 'string' ? detail.send_id : null,
        agent_run:
          typeof detail.agent_run_id === 'string'
            ? {
                agent_id: Number(detail.agent_id),
                run_id: detail.agent_run_id,
                channel: String(detail.channel),
              }
            : null,
        entered_at: s.enteredAt.toISOString(),
        due_at: s.status === 'waiting' || s.status === 'pending' ? (s.dueAt?.toISOString() ?? null) : null,
        finished_at: s.finishedAt?.toISOString() ?? null,
      });
    }
    out.push({
      id: run.id,
      version: run.version,
      status: run.status,
      entered_at: run.enteredAt.toISOString(),
      ended_at: run.endedAt?.toISOString() ?? null,
      clock_speed: run.clockSpeed,
      goal_reached_at: reached.get(run.id)?.toISOString() ?? null,
      steps: shown,
    });
  }
  return { customer_id: customerId, runs: out };
}

/**
 * `POST …/{id}/test/`: the chosen customer through the newest version now (a draft too), waits
 * `clock_speed` times shorter. Answers the run as the customer's path shows it.
 */
export async function testJourney(
  deps: JourneyDeps,
  businessId: number,
  id: number,
  input: { customer_id: number; clock_speed: number },
): Promise<TJourneyCustomerPath['runs'][number]> {
  const row = await repo.findJourney(deps.db, businessId, id);
  if (!row) throw notFound();
  const [customer] = await deps.ports.findCustomers(deps.db, businessId, [input.customer_id]);
  if (!customer)
    throw new AppError('not_found', JOURNEY_ERRORS.customerNotFound, {
      customer_id: [JOURNEY_ERRORS.customerNotFound],
    });
  // What the newest version names may have gone since it was saved: checked as a save checks it.
  await checkRunnable(deps, businessId, await graphOfVersion(deps, row));
  const run = await startTestRun(deps, {
    businessId,
    journeyId: id,
    version: row.version,
    customerId: customer.id,
    clockSpeed: input.clock_speed,
  });
  const path = await customerPath(deps, businessId, id, customer.id);
  return path.runs.find((r) => r.id === run.id)!;
}
