// Journeys and events (issue 32, next-api.md "Journeys and events"): facts about customers —
// Titan's own (a list joined, a message received, an email opened) and those a shop or app posts to
// `POST /api/events/` — start journeys and end their waits. A journey is a graph of steps (trigger,
// wait, branch, send, update, exit …) versioned on each edit of a live journey.
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from './webhooks';
import { ZAgentChannel } from './agents';

// ---- Events ----

/**
 * The facts Titan itself emits as customer events. Where a fact is also an outbound webhook event
 * its name is the webhook's (`customer.created`, `consent.changed`, `form.submitted`).
 */
export const TITAN_CUSTOMER_EVENTS = [
  'customer.created',
  'customer.updated',
  'consent.changed',
  'form.submitted',
  'list.joined',
  'list.left',
  'message.received',
  /** A mail Titan sent was accepted by the recipient's mail server, or bounced. */
  'email.delivered',
  'email.bounced',
  /** A person (not a proxy or a scanner) opened a mail Titan sent, or followed a link in it. */
  'email.opened',
  'email.clicked',
  /** Staff (or the AI responder) answered a customer who was waiting for an answer. */
  'conversation.replied',
  /** A conversation of the customer's was created (by them, staff or Titan), or a resolved one opened again. */
  'conversation.opened',
  /** Staff resolved one of the customer's conversations. */
  'conversation.resolved',
  /** A text or WhatsApp message Titan sent reached the phone, or was read (the provider's status). */
  'sms.delivered',
  'whatsapp.delivered',
  'whatsapp.read',
  /** A label was put on the customer, or on one of their conversations. */
  'label.added',
  /** A campaign's message to the customer was sent (its provider took it), on any channel. */
  'campaign.received',
  /** An AI agent's delivery to the customer was sent (its provider took it). */
  'agent.delivery_sent',
] as const satisfies readonly string[];
export type TTitanCustomerEvent = (typeof TITAN_CUSTOMER_EVENTS)[number];

/**
 * "The customer has waited N hours for an answer": `conversation.unanswered.<N>h` (1–720 hours),
 * emitted by Titan's scan once per waiting stretch of each active conversation, N hours after the
 * customer's first unanswered message. Journeys start on it or wait for it like any other event.
 */
export const UNANSWERED_EVENT_PREFIX = 'conversation.unanswered';
export const UNANSWERED_MAX_HOURS = 720;
export const unansweredEventName = (hours: number) => `${UNANSWERED_EVENT_PREFIX}.${hours}h`;
/** The hours of a `conversation.unanswered.<N>h` name; null for any other name (or N out of range). */
export function unansweredHoursOf(name: string): number | null {
  const m = /^conversation\.unanswered\.([1-9]\d{0,2})h$/.exec(name);
  const hours = m ? Number(m[1]) : null;
  return hours !== null && hours <= UNANSWERED_MAX_HOURS ? hours : null;
}

/** Names a posted event may not take: Titan's own facts (and the webhook catalogue's). */
const RESERVED_EVENT_NAMES = new Set<string>([...TITAN_CUSTOMER_EVENTS, ...WEBHOOK_EVENT_TYPES]);
/** Titan's journeys name their own events under this prefix (a date reached: `journey.date:<id>`). */
export const JOURNEY_EVENT_PREFIX = 'journey.';

export const EVENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

export const EVENT_ERRORS = {
  name: 'An event name is 1–100 letters, digits, dots, dashes, colons or underscores.',
  reserved:
    'This name is one of Titan’s own events (or starts with "journey." or "conversation.unanswered"); post your event under another name.',
  customer: 'Name the customer by one of id, email, phone or external_id.',
  customerNotFound: 'No such customer.',
  unanswered: 'Name it conversation.unanswered.<hours>h, from 1h to 720h (conversation.unanswered.4h).',
  properties: 'Properties are at most 16 KB of JSON.',
} as const;

const ZEventName = z.string().trim().regex(EVENT_NAME_PATTERN, EVENT_ERRORS.name);
/** An event a journey starts on or waits for: an unanswered conversation's name carries its hours. */
const ZJourneyEventName = ZEventName.refine(
  (n) => !n.startsWith(UNANSWERED_EVENT_PREFIX) || unansweredHoursOf(n) !== null,
  EVENT_ERRORS.unanswered,
);

export const ZEventCustomer = z
  .strictObject({
    id: z.number().int().positive().optional(),
    email: z.email().max(254).optional(),
    phone: z.string().trim().min(3).max(40).optional(),
    external_id: z.string().trim().min(1).max(255).optional(),
  })
  .refine((c) => Object.values(c).filter((v) => v !== undefined).length === 1, EVENT_ERRORS.customer);
export type TEventCustomer = z.infer<typeof ZEventCustomer>;

/** `POST /api/events/` (API keys): a custom event about one customer. */
export const ZCustomerEventRequest = z.strictObject({
  name: ZEventName.refine(
    (n) =>
      !RESERVED_EVENT_NAMES.has(n) &&
      !n.startsWith(JOURNEY_EVENT_PREFIX) &&
      !n.startsWith(UNANSWERED_EVENT_PREFIX),
    EVENT_ERRORS.reserved,
  ),
  customer: ZEventCustomer,
  properties: z
    .record(z.string(), z.unknown())
    .refine((p) => JSON.stringify(p).length <= 16_384, EVENT_ERRORS.properties)
    .default({}),
  /** The same key posted again is accepted (202) and not stored twice. */
  idempotency_key: z.string().trim().min(1).max(255).optional(),
  /** When it happened (ISO 8601 with an offset); now by default. */
  occurred_at: z.iso.datetime({ offset: true }).optional(),
});
export type TCustomerEventRequest = z.input<typeof ZCustomerEventRequest>;

export const ZCustomerEventAccepted = z.object({
  id: z.number().int(),
  /** False when the idempotency key had been posted before (the first event stands). */
  created: z.boolean(),
});
export type TCustomerEventAccepted = z.infer<typeof ZCustomerEventAccepted>;

// ---- Journey graphs ----

export const JOURNEY_NODE_TYPES = [
  'trigger',
  'wait',
  'branch',
  'send',
  'agent',
  'update',
  'conversation',
  'webhook',
  'exit',
] as const;
export type TJourneyNodeType = (typeof JOURNEY_NODE_TYPES)[number];
export const JOURNEY_REENTRY = ['never', 'after_exit', 'always'] as const;
export type TJourneyReentry = (typeof JOURNEY_REENTRY)[number];
export const JOURNEY_STATUSES = ['draft', 'live', 'paused'] as const;
export type TJourneyStatus = (typeof JOURNEY_STATUSES)[number];
export const JOURNEY_MAX_NODES = 100;
/** The longest wait: a year. */
export const JOURNEY_MAX_WAIT_SECONDS = 366 * 24 * 3600;

export const JOURNEY_ERRORS = {
  notFound: 'No such journey.',
  nodeIds: 'Each node has its own id.',
  oneTrigger: 'A journey starts with exactly one trigger.',
  edgeNode: 'No node has this id.',
  intoTrigger: 'Nothing leads into the trigger.',
  outOfExit: 'An exit leads nowhere.',
  oneWayOut: 'This step leads to one next step.',
  branchLabels: 'A condition branch leads on by two edges labelled "yes" and "no".',
  splitLabels: (n: number) => `A split leads on by ${n} edges labelled 0 to ${n - 1}.`,
  waitLabels: 'A wait for an event leads on by two edges labelled "event" and "timeout".',
  edgeTwice: 'Two edges leave this step with the same label.',
  cycle: 'Steps may not loop back to an earlier step.',
  unreachable: 'Nothing leads to this step.',
  emailFrom: 'An email step needs its sender (from).',
  smsContent: 'An SMS step needs a template_id or a body.',
  whatsappTemplate: 'A WhatsApp step sends an approved template: choose one (whatsapp_template).',
  templateNotFound: 'No such template.',
  listNotFound: 'No such list.',
  labelNotFound: 'No such label.',
  chatGroupNotFound: 'No such chat group.',
  segmentNotFound: 'No such segment (a static list starts journeys with its list.joined event).',
  memberNotFound: 'No such member of this business.',
  agentNotFound: 'No such agent.',
  agentChannel: (channel: string, has: readonly string[]) =>
    `The agent does not send on ${channel}${has.length ? `; it sends on ${has.join(', ')}` : ''}.`,
  dateField:
    'Name a custom field: letters, digits, spaces, dots, dashes or underscores (customer.fields.<name> or <name>).',
  localTime: 'A local time is HH:MM (00:00–23:59).',
  notLive: 'Only a live journey can be paused.',
  alreadyLive: 'This journey is live already.',
  ruleField: 'A rule reads event.properties.<name>, customer.fields.<name> or customer.<email|phone|name>.',
  customerNotFound: 'No such customer.',
  moveNotLive: 'Only a published journey has customers in flight to move.',
  moveNode: 'No such step in the live version.',
  moveToTrigger: 'Customers in flight move to a step after the trigger.',
} as const;

const ZLocalTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, JOURNEY_ERRORS.localTime);
const ZId = z.number().int().positive();
const ZIds = z.array(ZId).max(50);

export const ZTriggerConfig = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('event'), event: ZJourneyEventName }),
  /**
   * On entering a segment: everyone in it when the journey goes live, then each customer who comes
   * into it (checked every minute); one who leaves and comes back enters again per the re-entry rule.
   */
  z.strictObject({ kind: z.literal('segment'), segment_id: ZId }),
  /**
   * Each year on the date in a custom field (`birthday`, or `customer.fields.birthday`: YYYY-MM-DD or
   * --MM-DD; 29 February on the 28th in other years), at `local_time` on the customer's own clock.
   */
  z.strictObject({
    kind: z.literal('date'),
    field: z.string().trim().min(1).max(80),
    local_time: ZLocalTime,
  }),
]);

export const ZWaitConfig = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('duration'),
    seconds: z.number().int().min(1).max(JOURNEY_MAX_WAIT_SECONDS),
  }),
  z.strictObject({
    kind: z.literal('until_event'),
    event: ZJourneyEventName,
    timeout_seconds: z.number().int().min(1).max(JOURNEY_MAX_WAIT_SECONDS),
  }),
  z.strictObject({ kind: z.literal('until_time'), local_time: ZLocalTime }),
]);

export const JOURNEY_RULE_OPS = [
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'exists',
  'not_exists',
] as const;
/** A field a rule reads: the trigger event's properties, the customer's custom fields or details. */
export const JOURNEY_RULE_FIELD =
  /^(event\.properties\.[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}|customer\.fields\.[A-Za-z0-9_][A-Za-z0-9_ .-]{0,63}|customer\.(email|phone|name|external_id|email_status|sms_status|whatsapp_status))$/;
export const ZJourneyRule = z.strictObject({
  field: z.string().regex(JOURNEY_RULE_FIELD, JOURNEY_ERRORS.ruleField),
  op: z.enum(JOURNEY_RULE_OPS),
  value: z.union([z.string().max(2000), z.number(), z.boolean()]).optional(),
});
export type TJourneyRule = z.infer<typeof ZJourneyRule>;

export const ZBranchConfig = z.discriminatedUnion('kind', [
  /** Every rule must hold for "yes" (as a segment's conditions all must). */
  z.strictObject({ kind: z.literal('condition'), rules: z.array(ZJourneyRule).min(1).max(20) }),
  z.strictObject({
    kind: z.literal('split'),
    weights: z.array(z.number().int().min(0).max(100)).min(2).max(10),
  }),
]);

export const ZSendConfig = z.strictObject({
  channel: z.enum(['email', 'sms', 'whatsapp']),
  template_id: ZId.optional(),
  /** SMS without a template: the text (customer fields as {{ customer.name }}). */
  body: z.string().trim().min(1).max(1600).optional(),
  from: z.string().trim().min(3).max(320).optional(),
  /**
   * WhatsApp: an approved template (the only messages Meta lets a business start outside the 24-hour
   * window), its variables filled per customer as campaigns fill them (`customer.name`,
   * `fields.plan`, or text) by body placeholder (`1`, `first_name`), `header.<n>` or `button.<i>`.
   */
  whatsapp_template: z
    .strictObject({
      name: z.string().trim().min(1).max(512),
      language: z.string().trim().min(1).max(15),
      variables: z.record(z.string().max(64), z.string().max(1000)).optional(),
    })
    .optional(),
  /** Who may be reached: subscribed customers (default), or also those whose consent is unknown. */
  consent: z.enum(['subscribed', 'legitimate_interest']).default('subscribed'),
});

export const ZUpdateConfig = z.strictObject({
  fields: z.record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean()])).optional(),
  add_label_ids: ZIds.optional(),
  add_list_ids: ZIds.optional(),
  remove_list_ids: ZIds.optional(),
});

const node = <T extends string, C extends z.ZodType>(type: T, config: C) =>
  z.strictObject({
    id: z.string().trim().min(1).max(64),
    type: z.literal(type),
    config,
    /** Where the canvas draws it; kept as given. */
    position: z.strictObject({ x: z.number(), y: z.number() }).optional(),
  });

export const ZJourneyNode = z.discriminatedUnion('type', [
  node('trigger', ZTriggerConfig),
  node('wait', ZWaitConfig),
  node('branch', ZBranchConfig),
  node('send', ZSendConfig),
  /** `channel`: which of the agent's channels the run uses; absent, the agent's first (older journeys). */
  node('agent', z.strictObject({ agent_id: ZId, channel: ZAgentChannel.optional() })),
  node('update', ZUpdateConfig),
  node('conversation', z.strictObject({ chat_group_id: ZId.optional(), assignee_id: ZId.optional() })),
  node('webhook', z.strictObject({ url: z.string().trim().min(1).max(2000) })),
  node('exit', z.strictObject({})),
]);
export type TJourneyNode = z.infer<typeof ZJourneyNode>;

export const ZJourneyEdge = z.strictObject({
  from: z.string().min(1).max(64),
  to: z.string().min(1).max(64),
  label: z.string().max(32).optional(),
});
export type TJourneyEdge = z.infer<typeof ZJourneyEdge>;

/** The edge labels a node's way out must carry, or null when it has one unlabelled way out. */
export function journeyExitLabels(n: TJourneyNode): string[] | null {
  if (n.type === 'branch')
    return n.config.kind === 'condition' ? ['yes', 'no'] : n.config.weights.map((_, i) => String(i));
  if (n.type === 'wait' && n.config.kind === 'until_event') return ['event', 'timeout'];
  return null;
}

type Issue = { path: (string | number)[]; message: string };

/** What Titan cannot take in a graph's shape, each with the dotted path of the bad field. */
export function journeyGraphIssues(graph: { nodes: TJourneyNode[]; edges: TJourneyEdge[] }): Issue[] {
  const issues: Issue[] = [];
  const index = new Map<string, number>();
  graph.nodes.forEach((n, i) => {
    if (index.has(n.id)) issues.push({ path: ['nodes', i, 'id'], message: JOURNEY_ERRORS.nodeIds });
    else index.set(n.id, i);
  });
  const triggers = graph.nodes.flatMap((n, i) => (n.type === 'trigger' ? [i] : []));
  if (triggers.length !== 1)
    issues.push({
      path: triggers.length > 1 ? ['nodes', triggers[1]!, 'type'] : ['nodes'],
      message: JOURNEY_ERRORS.oneTrigger,
    });
  const out = new Map<string, { label: string | undefined; at: number }[]>();
  graph.edges.forEach((e, i) => {
    const from = index.get(e.from);
    const to = index.get(e.to);
    if (from === undefined) issues.push({ path: ['edges', i, 'from'], message: JOURNEY_ERRORS.edgeNode });
    if (to === undefined) issues.push({ path: ['edges', i, 'to'], message: JOURNEY_ERRORS.edgeNode });
    if (from === undefined || to === undefined) return;
    if (graph.nodes[to]!.type === 'trigger')
      issues.push({ path: ['edges', i, 'to'], message: JOURNEY_ERRORS.intoTrigger });
    if (graph.nodes[from]!.type === 'exit')
      issues.push({ path: ['edges', i, 'from'], message: JOURNEY_ERRORS.outOfExit });
    const list = out.get(e.from) ?? [];
    list.push({ label: e.label, at: i });
    out.set(e.from, list);
  });
  graph.nodes.forEach((n) => {
    const edges = out.get(n.id) ?? [];
    const labels = journeyExitLabels(n);
    if (labels === null) {
      if (edges.length > 1) issues.push({ path: ['edges', edges[1]!.at], message: JOURNEY_ERRORS.oneWayOut });
      return;
    }
    const seen = new Set<string>();
    for (const e of edges) {
      if (e.label === undefined || !labels.includes(e.label)) {
        issues.push({
          path: ['edges', e.at, 'label'],
          message:
            n.type === 'branch' && n.config.kind === 'condition'
              ? JOURNEY_ERRORS.branchLabels
              : n.type === 'branch'
                ? JOURNEY_ERRORS.splitLabels(labels.length)
                : JOURNEY_ERRORS.waitLabels,
        });
      } else if (seen.has(e.label))
        issues.push({ path: ['edges', e.at, 'label'], message: JOURNEY_ERRORS.edgeTwice });
      seen.add(e.label ?? '');
    }
  });
  if (issues.length > 0) return issues;
  // No loops, and every step reachable from the trigger.
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string): boolean => {
    if (state.get(id) === 'done') return true;
    if (state.get(id) === 'open') return false;
    state.set(id, 'open');
    for (const e of out.get(id) ?? []) {
      if (!visit(graph.edges[e.at]!.to)) {
        if (!issues.some((x) => x.message === JOURNEY_ERRORS.cycle))
          issues.push({ path: ['edges', e.at, 'to'], message: JOURNEY_ERRORS.cycle });
        return true;
      }
    }
    state.set(id, 'done');
    return true;
  };
  if (triggers.length === 1) {
    visit(graph.nodes[triggers[0]!]!.id);
    graph.nodes.forEach((n, i) => {
      if (!state.has(n.id)) issues.push({ path: ['nodes', i, 'id'], message: JOURNEY_ERRORS.unreachable });
    });
  }
  return issues;
}

export const ZJourneyGraph = z
  .strictObject({
    nodes: z.array(ZJourneyNode).min(1).max(JOURNEY_MAX_NODES),
    edges: z.array(ZJourneyEdge).max(JOURNEY_MAX_NODES * 4),
  })
  .superRefine((graph, ctx) => {
    for (const issue of journeyGraphIssues(graph)) ctx.addIssue({ code: 'custom', ...issue });
  });
export type TJourneyGraph = z.infer<typeof ZJourneyGraph>;

/** A journey's goal: the event that counts as its conversion when it comes within N days of entering. */
export const ZJourneyGoal = z.strictObject({
  event: ZJourneyEventName,
  within_days: z.number().int().min(1).max(366),
});
export type TJourneyGoal = z.infer<typeof ZJourneyGoal>;

/** `POST /api/journeys/`, and `PUT …/{id}/` (a new version when the journey has been published). */
export const ZJourneyRequest = z.strictObject({
  name: z.string().trim().min(1).max(200),
  graph: ZJourneyGraph,
  reentry: z.enum(JOURNEY_REENTRY).default('never'),
  /** Null or left out: no goal. */
  goal: ZJourneyGoal.nullable().default(null),
});

/** `POST …/{id}/test/`: the chosen customer through the newest version, waits `clock_speed` times shorter. */
export const JOURNEY_TEST_DEFAULT_SPEED = 3600;
export const ZJourneyTestRequest = z.strictObject({
  customer_id: ZId,
  clock_speed: z.number().int().min(1).max(1_000_000).default(JOURNEY_TEST_DEFAULT_SPEED),
});
export type TJourneyTestRequest = z.input<typeof ZJourneyTestRequest>;

/**
 * `POST …/{id}/move-in-flight/`: the customers in flight on older versions go on in the live version
 * at `to_node` (by default they finish on the version they entered).
 */
export const ZJourneyMoveRequest = z.strictObject({ to_node: z.string().trim().min(1).max(100) });
export type TJourneyMoveRequest = z.input<typeof ZJourneyMoveRequest>;
/** `moved`: customers now in the live version; `left`: still on an older one (a step of theirs was running). */
export const ZJourneyMoveResult = z.object({ moved: z.number().int(), left: z.number().int() });
export type TJourneyMoveResult = z.infer<typeof ZJourneyMoveResult>;
export type TJourneyRequest = z.input<typeof ZJourneyRequest>;

export const ZJourney = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(JOURNEY_STATUSES),
  reentry: z.enum(JOURNEY_REENTRY),
  /** The newest version (the one shown and edited). */
  version: z.number().int(),
  /** The version new customers enter; null until first published. */
  live_version: z.number().int().nullable(),
  graph: ZJourneyGraph,
  goal: ZJourneyGoal.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TJourney = z.infer<typeof ZJourney>;

export const ZJourneyNodeStats = z.object({
  entered: z.number().int(),
  waiting: z.number().int(),
  passed: z.number().int(),
  exited: z.number().int(),
  failed: z.number().int(),
});
/** `GET …/{id}/stats/`: per node id, over every version. */
export const ZJourneyStats = z.object({
  nodes: z.record(z.string(), ZJourneyNodeStats),
  customers: z.object({ active: z.number().int(), exited: z.number().int(), failed: z.number().int() }),
  /** Active customers still on a version older than the live one (they finish there unless moved). */
  in_flight_on_older_versions: z.number().int(),
  /** The goal's conversion: of the customers' passes (test runs aside), how many saw its event within its days. */
  goal: z
    .object({
      event: z.string(),
      within_days: z.number().int(),
      entered: z.number().int(),
      converted: z.number().int(),
    })
    .nullable(),
});
export type TJourneyStats = z.infer<typeof ZJourneyStats>;

export const JOURNEY_STEP_STATUSES = ['pending', 'waiting', 'passed', 'exited', 'failed'] as const;
/** A customer's pass through a journey (a run). */
export const JOURNEY_RUN_STATUSES = ['active', 'exited', 'failed'] as const;
export const ZJourneyStep = z.object({
  node_id: z.string(),
  type: z.string().nullable(),
  status: z.enum(JOURNEY_STEP_STATUSES),
  /** The way out taken: "yes"/"no", a split's index, "event"/"timeout", or null. */
  outcome: z.string().nullable(),
  /** Why a step failed or did not send, or the send it made. */
  reason: z.string().nullable(),
  send_id: z.string().nullable(),
  /** The agent run an agent step started for the customer (its page: the agent's runs on that channel). */
  agent_run: z.object({ agent_id: z.number().int(), run_id: z.string(), channel: z.string() }).nullable(),
  entered_at: z.string(),
  /** When a waiting step is due. */
  due_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export const ZJourneyCustomerRun = z.object({
  id: z.number().int(),
  version: z.number().int(),
  status: z.enum(JOURNEY_RUN_STATUSES),
  entered_at: z.string(),
  ended_at: z.string().nullable(),
  /** A test run's clock speed (`POST …/test/`); null for a customer who entered for real. */
  clock_speed: z.number().int().nullable(),
  /** When the goal's event came within its days of entering; null when it has not (or no goal). */
  goal_reached_at: z.string().nullable(),
  steps: z.array(ZJourneyStep),
});
/** `GET …/{id}/customers/{customerId}/`: each pass of the customer through the journey, oldest first. */
export const ZJourneyCustomerPath = z.object({
  customer_id: z.number().int(),
  runs: z.array(ZJourneyCustomerRun),
});
export type TJourneyCustomerPath = z.infer<typeof ZJourneyCustomerPath>;
