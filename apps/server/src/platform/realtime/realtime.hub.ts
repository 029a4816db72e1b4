// Live updates over WebSocket (api.md "Realtime"). Each instance keeps its own sockets and
// listens to the database change feed; a changed row is loaded once per instance and fanned
// out to every matching subscription, so any number of instances serve one business.
// The hub knows no domain: modules register topics (realtime.topic.ts) that authorize a
// subscription, load a changed row and match it; callers are resolved by the auth module.
// Access is not settled once at `auth`: every subscribe looks the caller up afresh, and whatever
// the auth cache forgets (logout, password reset, removal, a revoked visitor…, on this instance or
// heard on the feed) holds the caller's subscriptions and looks again; a caller who lost access is
// told so and the socket closes.
import {
  REALTIME_CLOSE_TOKEN_EXPIRED,
  REALTIME_CLOSE_UNAUTHORIZED,
  REALTIME_PING_INTERVAL_MS,
  ZRealtimeClientMessage,
  type TRealtimeServerMessage,
} from '@titan/contracts';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { Db } from '../../db/client';
import { nulInJson } from '../bad-input';
import type { ChangeFeed, Change } from '../change-feed';
import * as changeLog from './change-log.repository';
import type {
  AnyTopic,
  RealtimeCaller,
  RealtimeCallers,
  Revocation,
  SubscribeRequest,
  TopicScope,
  TypingSignal,
  TypingSource,
} from './realtime.topic';

/** Replays at most this many missed changes; beyond it the client is told to refetch. */
const REPLAY_LIMIT = 500;
/**
 * While the change feed is known not to deliver, revocations made on other instances go unheard:
 * every socket's caller is looked up again this often (as the auth cache's TTL bounds its answers).
 */
const UNHEALTHY_RECHECK_MS = 10_000;

export const HUB_ERRORS = {
  authFirst: 'Authenticate first.',
  denied: 'You do not have access to this subscription.',
} as const;

export type RealtimeDeps = {
  db: Db;
  feed: ChangeFeed;
  callers: RealtimeCallers;
  topics: AnyTopic[];
  logger: Logger;
  /** Who may send typing signals, and what they say (none: typing is refused). */
  typing?: TypingSource;
  /**
   * Told, every `intervalMs` and when a staff caller authenticates, which users have a socket open on
   * this instance (presence: a member with none anywhere goes offline after a grace period).
   */
  presence?: { touch(userIds: number[]): Promise<void>; intervalMs: number };
};

type Subscription = {
  id: string;
  conn: Connection;
  /** As the client sent it: looked at again when the caller's access may have changed. */
  request: SubscribeRequest;
  businessId: number;
  topic: AnyTopic;
  /** What the caller may see, as its topic's `authorize` last settled it. */
  scope: TopicScope;
  /**
   * Live changes wait here while missed ones are replayed (so order is kept), and while the
   * caller's access is being looked at again (so nothing goes out before the answer).
   */
  pending: Change[] | null;
  /** How many replays and re-checks are holding `pending`; it is flushed when none is left. */
  holds: number;
  /** Unsubscribed, replaced or its connection gone: nothing more is sent. */
  closed: boolean;
  /**
   * Seqs already sent. Seqs are taken inside transactions but announced at commit, so they can
   * arrive out of order: a high-water mark would drop the late ones; a window of seen seqs does not.
   */
  seen: Set<number>;
};

const SEEN_WINDOW = 4096;

/** The feed's name for typing signals (they are no table: nothing is stored or replayed). */
export const TYPING_SIGNAL = 'typing';
/** One typing signal per connection and conversation this often at most; more are dropped. */
const TYPING_EVERY_MS = 1_000;

type Connection = {
  socket: WebSocket;
  caller: RealtimeCaller | null;
  subs: Map<string, Subscription>;
  alive: boolean;
  expiry: NodeJS.Timeout | null;
  /** Bumped by every revocation that concerns the caller: an answer read before it is stale. */
  revocations: number;
  /** A re-check not yet started, and the subscriptions it holds; later revocations join it. */
  queued: { held: Subscription[] } | null;
  /** The re-checks of this connection run one after another. */
  checks: Promise<void>;
  /** When this connection last sent a typing signal, by conversation id. */
  typedAt: Map<number, number>;
};

/** Connections by caller: `s:<session id>`, `u:<user id>`, `c:<customer id>`. */
const callerKeys = (conn: Connection): string[] =>
  conn.caller?.kind === 'staff'
    ? [`s:${conn.caller.sessionId}`, `u:${conn.caller.userId}`]
    : conn.caller?.kind === 'visitor'
      ? [`c:${conn.caller.customerId}`]
      : [];

export class RealtimeHub {
  private readonly connections = new Set<Connection>();
  private readonly byBusiness = new Map<number, Set<Subscription>>();
  private readonly byCaller = new Map<string, Set<Connection>>();
  private stopFeed: (() => void) | null = null;
  private stopRevocations: (() => void) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private unhealthyRecheck: NodeJS.Timeout | null = null;
  private presenceBeat: NodeJS.Timeout | null = null;

  private readonly topics: Map<string, AnyTopic>;

  constructor(private readonly deps: RealtimeDeps) {
    this.topics = new Map(deps.topics.map((topic) => [topic.name, topic]));
  }

  start(): void {
    this.stopFeed = this.deps.feed.subscribe((change) => void this.onChange(change));
    // The auth cache hears this instance's writes at once and other instances' on the feed.
    this.stopRevocations = this.deps.callers.onRevoke((revocation) => this.onRevoke(revocation));
    this.heartbeat = setInterval(() => this.beat(), REALTIME_PING_INTERVAL_MS);
    this.heartbeat.unref();
    this.unhealthyRecheck = setInterval(() => {
      if (!this.deps.callers.feedHealthy) this.onRevoke({ kind: 'all' });
    }, UNHEALTHY_RECHECK_MS);
    this.unhealthyRecheck.unref();
    const presence = this.deps.presence;
    if (presence) {
      this.presenceBeat = setInterval(() => this.touchPresence(this.connectedStaff()), presence.intervalMs);
      this.presenceBeat.unref();
    }
  }

  /** The users with a staff socket open on this instance. */
  connectedStaff(): number[] {
    const ids: number[] = [];
    for (const key of this.byCaller.keys()) if (key.startsWith('u:')) ids.push(Number(key.slice(2)));
    return ids;
  }

  private touchPresence(userIds: number[]): void {
    if (!this.deps.presence || userIds.length === 0) return;
    this.deps.presence
      .touch(userIds)
      .catch((err: unknown) => this.deps.logger.error({ err }, 'presence heartbeat failed'));
  }

  stop(): void {
    this.stopFeed?.();
    this.stopRevocations?.();
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.unhealthyRecheck) clearInterval(this.unhealthyRecheck);
    if (this.presenceBeat) clearInterval(this.presenceBeat);
    for (const conn of this.connections) conn.socket.close(1001, 'server shutting down');
  }

  accept(socket: WebSocket): void {
    const conn: Connection = {
      socket,
      caller: null,
      subs: new Map(),
      alive: true,
      expiry: null,
      revocations: 0,
      queued: null,
      checks: Promise.resolve(),
      typedAt: new Map(),
    };
    this.connections.add(conn);
    socket.on('pong', () => (conn.alive = true));
    socket.on('message', (data) => {
      this.onMessage(conn, data.toString()).catch((err: unknown) => {
        this.deps.logger.error({ err }, 'realtime message failed');
        send(conn, { type: 'error', message: 'Something went wrong.' });
      });
    });
    socket.on('close', () => this.drop(conn));
    socket.on('error', () => this.drop(conn));
  }

  private beat(): void {
    for (const conn of this.connections) {
      if (!conn.alive) {
        conn.socket.terminate();
        continue;
      }
      conn.alive = false;
      conn.socket.ping();
      send(conn, { type: 'ping' });
    }
  }

  private drop(conn: Connection): void {
    if (conn.expiry) clearTimeout(conn.expiry);
    for (const sub of conn.subs.values()) this.unindex(sub);
    conn.subs.clear();
    this.unindexCaller(conn);
    this.connections.delete(conn);
  }

  private indexCaller(conn: Connection): void {
    for (const key of callerKeys(conn)) {
      let set = this.byCaller.get(key);
      if (!set) this.byCaller.set(key, (set = new Set()));
      set.add(conn);
    }
  }

  private unindexCaller(conn: Connection): void {
    for (const key of callerKeys(conn)) {
      const set = this.byCaller.get(key);
      set?.delete(conn);
      if (set?.size === 0) this.byCaller.delete(key);
    }
  }

  private unindex(sub: Subscription): void {
    sub.closed = true;
    const set = this.byBusiness.get(sub.businessId);
    set?.delete(sub);
    if (set?.size === 0) this.byBusiness.delete(sub.businessId);
  }

  private async onMessage(conn: Connection, raw: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return send(conn, { type: 'error', message: 'Messages must be JSON.' });
    }
    // Text PostgreSQL cannot store (a NUL in a business code) is refused as over HTTP.
    const nul = nulInJson(raw, json);
    if (nul)
      return send(conn, {
        type: 'error',
        message: 'Invalid message.',
        errors: nul.result as Record<string, string[]>,
      });
    const parsed = ZRealtimeClientMessage.safeParse(json);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues)
        (errors[issue.path.join('.') || 'non_field_errors'] ??= []).push(issue.message);
      const id = typeof (json as { id?: unknown })?.id === 'string' ? (json as { id: string }).id : undefined;
      return send(conn, { type: 'error', ...(id ? { id } : {}), message: 'Invalid message.', errors });
    }
    const msg = parsed.data;
    try {
      switch (msg.type) {
        case 'auth':
          return await this.authenticate(conn, msg.token);
        case 'subscribe':
          return await this.subscribe(conn, msg);
        case 'unsubscribe': {
          const sub = conn.subs.get(msg.id);
          if (sub) {
            this.unindex(sub);
            conn.subs.delete(msg.id);
          }
          return send(conn, { type: 'unsubscribed', id: msg.id });
        }
        case 'pong':
          conn.alive = true;
          return;
        case 'typing':
          return await this.typing(conn, msg.conversation_id);
        default: {
          const unreachable: never = msg;
          return unreachable;
        }
      }
    } catch (err) {
      this.deps.logger.error({ err }, 'realtime message failed');
      send(conn, { type: 'error', message: 'Something went wrong.' });
    }
  }

  private async authenticate(conn: Connection, token: string): Promise<void> {
    const caller = await this.deps.callers.authenticate(token);
    if (!caller) {
      conn.socket.close(REALTIME_CLOSE_UNAUTHORIZED, 'invalid token');
      return;
    }
    const exp = caller.exp;
    if (!this.connections.has(conn)) return;
    this.unindexCaller(conn);
    conn.caller = caller;
    this.indexCaller(conn);
    if (conn.expiry) clearTimeout(conn.expiry);
    // The socket lives as long as its token: the client reconnects with a fresh one and resumes.
    conn.expiry = setTimeout(
      () => conn.socket.close(REALTIME_CLOSE_TOKEN_EXPIRED, 'token expired'),
      Math.min(Math.max(0, exp * 1000 - Date.now()), 2 ** 31 - 1),
    );
    conn.expiry.unref();
    if (caller.kind === 'staff') this.touchPresence([caller.userId]);
    send(conn, { type: 'ready' });
  }

  /**
   * A caller says they are typing: if the conversation is theirs to see (as its `messages` topic
   * would let them subscribe), every instance hears it and tells the conversation's other
   * subscribers. Refusals are silent beyond one error: typing is a hint, never a write.
   */
  private async typing(conn: Connection, conversationId: number): Promise<void> {
    const caller = conn.caller;
    if (caller === null) return send(conn, { type: 'error', message: HUB_ERRORS.authFirst });
    const source = this.deps.typing;
    if (!source) return send(conn, { type: 'error', message: HUB_ERRORS.denied });
    const now = Date.now();
    const last = conn.typedAt.get(conversationId);
    if (last !== undefined && now - last < TYPING_EVERY_MS) return;
    conn.typedAt.set(conversationId, now);
    if (conn.typedAt.size > 100) conn.typedAt.delete(conn.typedAt.keys().next().value!);
    const signal = await source(caller, conversationId);
    if (!signal) return send(conn, { type: 'error', message: HUB_ERRORS.denied });
    const from = callerKeys(conn).at(-1)!;
    await this.deps.feed.publish({
      table: TYPING_SIGNAL,
      op: 'INSERT',
      id: null,
      business_id: String(signal.businessId),
      conversation_id: String(signal.conversationId),
      signal: { from, who: signal.who },
    });
  }

  /** A typing signal heard on the feed (from any instance): to the conversation's other subscribers. */
  private onTyping(change: Change): void {
    const payload = change.signal as Pick<TypingSignal, 'from' | 'who'> | undefined;
    if (!payload || change.business_id === null || change.conversation_id === null) return;
    const signal: TypingSignal = {
      businessId: Number(change.business_id),
      conversationId: Number(change.conversation_id),
      ...payload,
    };
    for (const sub of this.byBusiness.get(signal.businessId) ?? []) {
      if (sub.closed || !sub.topic.typing || callerKeys(sub.conn).includes(signal.from)) continue;
      const who = sub.topic.typing(sub.scope, signal);
      if (!who) continue;
      sendRaw(
        sub.conn,
        JSON.stringify({ type: 'typing', sub: sub.id, conversation_id: signal.conversationId, who }),
      );
    }
  }

  private async subscribe(conn: Connection, msg: SubscribeRequest): Promise<void> {
    const caller = conn.caller;
    if (caller === null) {
      return send(conn, { type: 'error', id: msg.id, message: HUB_ERRORS.authFirst });
    }
    const topic = this.topics.get(msg.topic);
    if (!topic) return send(conn, { type: 'error', id: msg.id, message: HUB_ERRORS.denied });
    // Looked up afresh for every subscribe; again if a revocation arrived meanwhile.
    let scope: TopicScope | 'denied' | 'revoked';
    let revocations: number;
    do {
      revocations = conn.revocations;
      scope = await topic.authorize(caller, msg);
    } while (revocations !== conn.revocations && typeof scope === 'object');
    if (!this.connections.has(conn)) return;
    if (scope === 'revoked') return this.revoke(conn, msg.id);
    if (scope === 'denied') {
      return send(conn, { type: 'error', id: msg.id, message: HUB_ERRORS.denied });
    }

    const previous = conn.subs.get(msg.id);
    if (previous) this.unindex(previous);
    const sub: Subscription = {
      id: msg.id,
      conn,
      request: msg,
      businessId: scope.businessId,
      topic,
      scope,
      pending: [],
      holds: 1,
      closed: false,
      seen: new Set(),
    };
    conn.subs.set(msg.id, sub);
    let set = this.byBusiness.get(sub.businessId);
    if (!set) this.byBusiness.set(sub.businessId, (set = new Set()));
    set.add(sub);

    const current = await changeLog.latestSeq(this.deps.db, sub.businessId);
    send(conn, { type: 'subscribed', id: msg.id, seq: current });
    if (msg.after_seq !== undefined && msg.after_seq < current) await this.replay(sub, msg.after_seq);
    await this.release(sub);
  }

  /** The caller's session or visitor token no longer stands: say so, stop sending and close. */
  private revoke(conn: Connection, id?: string): void {
    if (conn.caller) {
      send(conn, {
        type: 'error',
        ...(id ? { id } : {}),
        message: this.deps.callers.endedMessage(conn.caller),
      });
    }
    conn.socket.close(REALTIME_CLOSE_UNAUTHORIZED, 'session ended');
    this.drop(conn);
  }

  private onRevoke(revocation: Revocation): void {
    const affected = new Set<Connection>();
    const add = (conns: Iterable<Connection> | undefined) => {
      for (const conn of conns ?? []) affected.add(conn);
    };
    switch (revocation.kind) {
      case 'session':
        add(this.byCaller.get(`s:${revocation.sessionId}`));
        break;
      case 'user':
      case 'membership':
        add(this.byCaller.get(`u:${revocation.userId}`));
        break;
      case 'customer':
        add(this.byCaller.get(`c:${revocation.customerId}`));
        break;
      case 'business':
        for (const sub of this.byBusiness.get(revocation.businessId) ?? []) affected.add(sub.conn);
        break;
      case 'all':
        add(this.connections);
        break;
      default: {
        const unreachable: never = revocation;
        return unreachable;
      }
    }
    for (const conn of affected) this.suspect(conn);
  }

  /** Holds the connection's deliveries at once, and looks its caller up again. */
  private suspect(conn: Connection): void {
    conn.revocations++;
    const held = [...conn.subs.values()];
    for (const sub of held) this.hold(sub);
    if (conn.queued) {
      conn.queued.held.push(...held);
      return;
    }
    const queued = { held };
    conn.queued = queued;
    conn.checks = conn.checks.then(async () => {
      if (conn.queued === queued) conn.queued = null;
      try {
        await this.recheck(conn);
      } catch (err) {
        // Unable to tell: the caller is not trusted on.
        this.deps.logger.error({ err }, 'realtime access re-check failed');
        conn.socket.close(REALTIME_CLOSE_UNAUTHORIZED, 'session ended');
        this.drop(conn);
      }
      for (const sub of queued.held) await this.release(sub);
    });
  }

  private async recheck(conn: Connection): Promise<void> {
    const caller = conn.caller;
    if (!this.connections.has(conn) || !caller) return;
    const alive = await this.deps.callers.stillValid(caller);
    if (!this.connections.has(conn)) return;
    if (!alive) return this.revoke(conn);
    let denied = false;
    for (const sub of [...conn.subs.values()]) {
      const scope = await sub.topic.authorize(caller, sub.request);
      if (!this.connections.has(conn)) return;
      if (sub.closed) continue; // unsubscribed or replaced meanwhile
      if (scope === 'revoked') return this.revoke(conn);
      if (scope === 'denied') {
        denied = true;
        this.unindex(sub);
        conn.subs.delete(sub.id);
        send(conn, { type: 'error', id: sub.id, message: HUB_ERRORS.denied });
        continue;
      }
      // Still allowed, perhaps to less (an admin made an agent sees only their groups).
      sub.scope = scope;
    }
    if (denied && conn.subs.size === 0) {
      conn.socket.close(REALTIME_CLOSE_UNAUTHORIZED, 'access revoked');
      this.drop(conn);
    }
  }

  private hold(sub: Subscription): void {
    sub.holds++;
    sub.pending ??= [];
  }

  /** Ends one hold; the last one sends what waited, in order. */
  private async release(sub: Subscription): Promise<void> {
    if (--sub.holds > 0) return;
    const waiting = sub.pending ?? [];
    sub.pending = null;
    for (const change of waiting) {
      if (sub.closed) return;
      await this.deliver(sub, change);
    }
  }

  /** Sends what the subscriber missed since `afterSeq`, or asks it to refetch when too much. */
  private async replay(sub: Subscription, afterSeq: number): Promise<void> {
    const oldest = await changeLog.oldestSeq(this.deps.db);
    const missed = await changeLog.changesAfter(this.deps.db, sub.businessId, afterSeq, REPLAY_LIMIT + 1);
    if (missed.length > REPLAY_LIMIT || (oldest > 0 && afterSeq < oldest - 1)) {
      send(sub.conn, { type: 'resync', id: sub.id });
      return;
    }
    for (const c of missed) {
      await this.deliver(sub, {
        seq: c.seq,
        table: c.tableName,
        op: c.op as Change['op'],
        id: c.rowId,
        business_id: String(c.businessId),
        conversation_id: c.conversationId === null ? null : String(c.conversationId),
        old_last_message_at: c.oldLastMessageAt?.toISOString() ?? null,
      });
    }
  }

  /** Changes of one row are handled in arrival order, so an older state never overtakes a newer. */
  private readonly rowQueues = new Map<string, Promise<void>>();

  private onChange(change: Change): Promise<void> {
    if (change.table === TYPING_SIGNAL) {
      this.onTyping(change);
      return Promise.resolve();
    }
    // What no subscription of this instance can receive (no row to send, or nobody here subscribed to
    // its business) is passed by at once: on a busy instance that is most of the feed, and queueing
    // it would cost a chain of promises per change for handleChange to drop it anyway.
    if (
      change.seq === undefined ||
      !change.id ||
      change.op === 'DELETE' ||
      !this.byBusiness.has(Number(change.business_id))
    )
      return Promise.resolve();
    const key = `${change.table}:${change.id}`;
    const previous = this.rowQueues.get(key) ?? Promise.resolve();
    const next = previous
      .then(() => this.handleChange(change))
      .catch((err: unknown) => this.deps.logger.error({ err, table: change.table }, 'realtime change failed'))
      .finally(() => {
        if (this.rowQueues.get(key) === next) this.rowQueues.delete(key);
      });
    this.rowQueues.set(key, next);
    return next;
  }

  private async handleChange(change: Change): Promise<void> {
    if (change.seq === undefined || !change.id || change.op === 'DELETE') return;
    const subs = this.byBusiness.get(Number(change.business_id));
    if (!subs || subs.size === 0) return;
    for (const sub of subs) {
      if (sub.pending) sub.pending.push(change);
    }
    const ready = [...subs].filter((s) => !s.pending && s.topic.wants(s.scope, change));
    if (ready.length === 0) return;
    // Loaded once per topic (topics carry different tables: once per instance)…
    const topics = [...new Set(ready.map((s) => s.topic))];
    const rows = await Promise.all(topics.map((topic) => topic.load(change)));
    const loaded = new Map(topics.map((topic, i) => [topic, rows[i]]));
    // …and serialised once per topic and shape (staff, visitor) for every subscriber of this instance.
    const bodies = new Map<string, string>();
    for (const sub of ready) {
      // Held while the row loaded (its caller's access is being looked at again): wait too.
      if (sub.pending) {
        sub.pending.push(change);
        continue;
      }
      const row = loaded.get(sub.topic);
      if (row === null || row === undefined) continue;
      const key = `${sub.topic.name}\u0000${sub.scope.shape}`;
      let body = bodies.get(key);
      if (body === undefined) bodies.set(key, (body = sub.topic.serialize(row, sub.scope.shape)));
      this.emit(sub, change, row, body);
    }
  }

  private async deliver(sub: Subscription, change: Change): Promise<void> {
    if (
      change.seq === undefined ||
      sub.seen.has(change.seq) ||
      !change.id ||
      !sub.topic.wants(sub.scope, change)
    )
      return;
    const row = await sub.topic.load(change);
    if (row === null) return;
    this.emit(sub, change, row, sub.topic.serialize(row, sub.scope.shape));
  }

  private emit(sub: Subscription, change: Change, row: unknown, body: string): void {
    const seq = change.seq!;
    if (sub.closed || sub.seen.has(seq)) return;
    const delivery = sub.topic.match(sub.scope, row, change);
    if (!delivery) return;
    sub.seen.add(seq);
    if (sub.seen.size > SEEN_WINDOW) sub.seen.delete(sub.seen.values().next().value!);
    const old = sub.topic.old(change);
    // The row is already JSON; only the envelope around it differs per subscription.
    const head = JSON.stringify({ type: 'change', sub: sub.id, seq, table: change.table, event: change.op });
    const matches = delivery.matches === undefined ? '' : `,"matches":${delivery.matches}`;
    sendRaw(sub.conn, `${head.slice(0, -1)},"new":${body},"old":${JSON.stringify(old)}${matches}}`);
  }
}

function send(conn: Connection, message: TRealtimeServerMessage): void {
  sendRaw(conn, JSON.stringify(message));
}

function sendRaw(conn: Connection, json: string): void {
  if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(json);
}
