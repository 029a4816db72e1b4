// What journeys need from the rest of Titan, as ports built in composition.ts (journey-ports.ts):
// the journeys module drives sends, customers, lists and labels without importing their modules.
import type { Logger } from 'pino';
import type {
  TAgentChannel,
  TConsentStatus,
  TEventCustomer,
  TJourneyNode,
  TSegmentFilter,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';

export type JourneyCustomer = {
  id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  externalId: string | null;
  fields: Record<string, unknown>;
  emailStatus: TConsentStatus;
  smsStatus: TConsentStatus;
  whatsappStatus: TConsentStatus;
};

export type SendConfig = Extract<TJourneyNode, { type: 'send' }>['config'];
export type UpdateConfig = Extract<TJourneyNode, { type: 'update' }>['config'];
export type ConversationConfig = Extract<TJourneyNode, { type: 'conversation' }>['config'];

/** What a webhook step's call got: a 2xx, or why not (refused, unreachable, another status). */
export type WebhookAnswer =
  { ok: true; status: number } | { ok: false; status: number | null; reason: string };

/** What a send step did: the send recorded (queued to hand on, or final), or why none was made. */
export type SendChannel = 'email' | 'sms' | 'whatsapp';
export type RecordedSend =
  | { sendId: string; status: string; reason: string | null; dispatch: boolean; channel: SendChannel }
  | { sendId: null; status: 'not_sent'; reason: string; dispatch: false; channel: SendChannel };

/** What an agent step did: the agent's one-customer run started (or found under its key), or why none was. */
export type StartedAgentRun =
  { runId: string; created: boolean; channel: string } | { runId: null; reason: string };

export type JourneyPorts = {
  findCustomer(db: Queryable, businessId: number, by: TEventCustomer): Promise<JourneyCustomer | null>;
  findCustomers(db: Queryable, businessId: number, ids: number[]): Promise<JourneyCustomer[]>;
  /** Whether the business has each referenced object; the missing ones answered as dotted paths. */
  templateExists(db: Queryable, businessId: number, id: number): Promise<boolean>;
  staticListExists(db: Queryable, businessId: number, id: number): Promise<boolean>;
  labelExists(db: Queryable, businessId: number, id: number): Promise<boolean>;
  /**
   * Records a send in the spine inside the step's transaction, once per idempotency key (a key
   * already recorded answers its send): checks the address, suppression and consent first.
   */
  recordSend(
    tx: Queryable,
    input: {
      businessId: number;
      customer: JourneyCustomer;
      config: SendConfig;
      idempotencyKey: string;
      causeId: string;
      /**
       * Kept for one batch of steps (one transaction): what the port reads once for many sends
       * (the sender, its domain, the compiled template) may be kept here and used again.
       */
      memo?: Map<string, unknown>;
    },
  ): Promise<RecordedSend>;
  /** Hands recorded sends to their channel's job, after the commit (the spine's recovery catches a miss). */
  dispatchSends(sends: { id: string; channel: SendChannel }[]): Promise<void>;
  /** Why the business cannot send this WhatsApp template from a journey (empty: it can). */
  whatsappTemplateProblems(
    db: Queryable,
    businessId: number,
    template: NonNullable<SendConfig['whatsapp_template']>,
  ): Promise<string[]>;
  /** The customer's time zone: stored, else their phone's country, else the business's. */
  zoneOf(db: Queryable, businessId: number, customer: JourneyCustomer): Promise<string>;
  /**
   * When a text (SMS, WhatsApp) to the customer at `at` falls in quiet hours on their clock (the
   * hours campaigns keep, CAMPAIGN_QUIET_HOURS): the moment they end; null when it may go now.
   */
  quietHoursEnd(db: Queryable, businessId: number, customer: JourneyCustomer, at: Date): Promise<Date | null>;
  /** Applies an update step in the step's transaction (fields merged, labels and lists added or removed). */
  updateCustomer(tx: Queryable, businessId: number, customerId: number, config: UpdateConfig): Promise<void>;
  /**
   * A page of the business's customers (id order, after `afterId`) whose custom field `field` may
   * hold one of these month-days (`MM-DD`): the engine checks each on the customer's own clock.
   */
  customersWithDateOn(
    db: Queryable,
    businessId: number,
    field: string,
    monthDays: string[],
    afterId: number,
    limit: number,
  ): Promise<JourneyCustomer[]>;
  /** A segment of the business by id, as a filter to page through; null when it has none by that id. */
  segmentOf(db: Queryable, businessId: number, listId: number): Promise<TSegmentFilter | null>;
  /** A page of the segment's customer ids (id order, after `afterId`). */
  segmentCustomerIds(
    db: Queryable,
    businessId: number,
    filter: TSegmentFilter,
    afterId: number,
    limit: number,
  ): Promise<number[]>;
  /** Of these customers, those the segment still matches. */
  segmentCustomerIdsAmong(
    db: Queryable,
    businessId: number,
    filter: TSegmentFilter,
    ids: number[],
  ): Promise<number[]>;
  /** Why Titan will not call a webhook step's URL (the one SSRF gate of outbound calls), or null. */
  webhookUrlProblem(url: string): Promise<string | null>;
  /** POSTs a webhook step's JSON through the SSRF gate (checked again at connect time). */
  callWebhook(input: { url: string; body: string; idempotencyKey: string }): Promise<WebhookAnswer>;
  /**
   * A page (conversation id order, after `afterId`) of the business's active conversations whose
   * customer has waited for an answer since a moment between `from` and `cutoff`.
   */
  awaitingReply(
    db: Queryable,
    input: { businessId: number; from: Date; cutoff: Date; afterId: number; limit: number },
  ): Promise<{ id: number; customerId: number; channel: string; waitingSince: Date }[]>;
  chatGroupExists(db: Queryable, businessId: number, id: number): Promise<boolean>;
  /** The agent's channels (its config's order), or null when the business has no such agent. */
  agentChannels(db: Queryable, businessId: number, id: number): Promise<string[] | null>;
  /**
   * An agent step: the agent's run for this customer alone, recorded in the step's transaction once
   * per key (a key already recorded answers its run); its guardrails apply as in any run.
   */
  startAgentRun(
    tx: Queryable,
    input: {
      businessId: number;
      agentId: number;
      /** The step's channel; absent (journeys saved before the choice), the agent's first. */
      channel?: TAgentChannel;
      customerId: number;
      idempotencyKey: string;
      at: Date;
    },
  ): Promise<StartedAgentRun>;
  /**
   * The business's frequency cap's per-customer locks (sends module), held until `tx` ends and taken
   * in ascending customer order: a batch takes those of its send steps before running any of them.
   */
  holdFrequencyCapLocks(tx: Queryable, keys: { businessId: number; customerId: number }[]): Promise<void>;
  /** Hands started agent runs to the run loop, after the commit (the loop's recovery catches a miss). */
  dispatchAgentRuns(runIds: string[]): Promise<void>;
  /** Whether the user is a member of the business (a conversation may be assigned to them). */
  memberExists(db: Queryable, businessId: number, userId: number): Promise<boolean>;
  /**
   * A conversation step in the step's transaction: the customer's open conversation (any channel,
   * the newest), else a new one in `chat_group_id`; assigned to `assignee_id` when given.
   */
  openConversation(
    tx: Queryable,
    input: { businessId: number; customerId: number; config: ConversationConfig; title: string },
  ): Promise<{ conversationId: number; created: boolean }>;
};

export type JourneyDeps = {
  db: Db;
  logger: Pick<Logger, 'error' | 'warn' | 'info'>;
  ports: JourneyPorts;
  /** The engine's clock: tests drive time through it. */
  clock: () => Date;
  /** Steps and events taken per pass. */
  batchSize: number;
  /** How long a claimed step is held before another worker may take it. */
  leaseMs: number;
  /** Tells this process's loop that work was stored (no-op where workers do not run). */
  wake: () => void;
};

export const JOURNEY_DEFAULTS = { batchSize: 100, leaseMs: 60_000 } as const;
