// What the realtime hub asks of the modules whose rows it carries. The hub keeps sockets,
// subscriptions, replay and revocation; a topic says who may subscribe to what (`authorize`), which
// changes concern a subscription (`wants`), how a changed row is loaded (once per instance) and
// written (once per shape), and whether one subscription gets it (`match`).
import type { TRealtimeClientMessageParsed } from '@titan/contracts';
import type { Change } from '../change-feed';

export type SubscribeRequest = Extract<TRealtimeClientMessageParsed, { type: 'subscribe' }>;
export type TopicName = SubscribeRequest['topic'];

/** Who is on a socket, as the caller resolver settled it at `auth`. */
export type RealtimeCaller =
  | { kind: 'staff'; userId: number; sessionId: string; exp: number }
  | { kind: 'visitor'; customerId: number; businessId: number; version: number; exp: number };

/**
 * Something that may have ended a caller's access: a session, all of a user's sessions, a
 * membership, a whole business, a visitor (customer) — or anything (`all`: the feed may have
 * missed announcements). A hint, not a verdict: listeners look the caller up again.
 */
export type Revocation =
  | { kind: 'session'; sessionId: string }
  | { kind: 'user'; userId: number }
  | { kind: 'membership'; businessId: number; userId: number }
  | { kind: 'business'; businessId: number }
  | { kind: 'customer'; customerId: number }
  | { kind: 'all' };

/** How the hub resolves callers (the auth module's one way, shared with the HTTP guard). */
export type RealtimeCallers = {
  /** The caller a token names, if its session (or visitor record) stands now. */
  authenticate(token: string): Promise<RealtimeCaller | null>;
  /** Whether the caller's session (or visitor token) still stands, looked up now. */
  stillValid(caller: RealtimeCaller): Promise<boolean>;
  /** What a caller whose session ended is told before the socket closes. */
  endedMessage(caller: RealtimeCaller): string;
  /** Everything that may have ended someone's access, on this instance or heard on the feed. */
  onRevoke(listener: (revocation: Revocation) => void): () => void;
  /** False while revocations made on other instances may go unheard. */
  readonly feedHealthy: boolean;
};

/** What one subscription may see; the hub needs its business (indexing) and its shape (bodies). */
export type TopicScope = {
  businessId: number;
  /** Subscriptions of one shape receive the same bytes for a row (e.g. 'staff', 'visitor'). */
  shape: string;
};

/** Not sent, or sent (with `matches` when the topic reports whether the row fits the filter). */
export type Delivery = false | { matches?: boolean };

export type RealtimeTopic<S extends TopicScope = TopicScope, R = unknown> = {
  name: TopicName;
  /** The scope this caller gets for this request: looked up afresh on every subscribe and re-check. */
  authorize(caller: RealtimeCaller, request: SubscribeRequest): Promise<S | 'denied' | 'revoked'>;
  /** Whether the change concerns the subscription at all, before anything is loaded. */
  wants(scope: S, change: Change): boolean;
  /** The changed row, once per instance for all subscriptions; null when it is gone. */
  load(change: Change): Promise<R | null>;
  /** The row's JSON for one shape: once per change and shape. */
  serialize(row: R, shape: string): string;
  /** Whether this subscription gets the row. */
  match(scope: S, row: R, change: Change): Delivery;
  /** The event's `old` field. */
  old(change: Change): unknown;
  /**
   * Typing signals (no row, no seq): whether this subscription hears one, and who it names in the
   * subscription's shape (null: not sent). Topics without it never carry typing.
   */
  typing?(scope: S, signal: TypingSignal): Record<string, unknown> | null;
};

/** "Someone is typing", as one instance publishes it for all: the conversation and who, per shape. */
export type TypingSignal = {
  businessId: number;
  conversationId: number;
  /** The sender's caller key (`u:<user id>`, `c:<customer id>`): never echoed back to them. */
  from: string;
  /** Who is typing, as each shape of subscriber may see them. */
  who: Record<string, Record<string, unknown>>;
};

/** Who may say they are typing in a conversation: the signal to publish, or null (not theirs to see). */
export type TypingSource = (
  caller: RealtimeCaller,
  conversationId: number,
) => Promise<Omit<TypingSignal, 'from'> | null>;

/** A topic as the hub holds it, whatever its scope and row types. */
export type AnyTopic = RealtimeTopic<TopicScope, unknown>;

export function defineTopic<S extends TopicScope, R>(topic: RealtimeTopic<S, R>): AnyTopic {
  return topic as unknown as AnyTopic;
}
