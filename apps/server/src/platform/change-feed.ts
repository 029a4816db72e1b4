// One LISTEN per instance on "titan_changes" (see the change-feed migration), fanned out in-process.
// On PostgreSQL that connection can drop and reconnect, losing what was announced in between, so the
// feed pings itself on the channel and tells `onReset` handlers when a ping went missing.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Database } from '../db/client';

export const CHANGE_CHANNEL = 'titan_changes';

export type Change = {
  table: string;
  op: 'INSERT' | 'UPDATE' | 'DELETE';
  id: string | null;
  business_id: string | null;
  conversation_id: string | null;
  /** Present for realtime tables (change_log): the event's sequence number. */
  seq?: number;
  /** For conversation updates: last_message_at before the change. */
  old_last_message_at?: string | null;
  /**
   * For messages and wa_messages (migration 0094): who wrote it, what it is, and an activity line's
   * action — enough for a listener to pass by a message that does not concern it unread. Absent on
   * announcements made before that migration (then read the row).
   */
  sender_type?: string | null;
  message_type?: string | null;
  action?: string | null;
  /** For the auth tables (sessions, memberships): the row's user. */
  user_id?: string | null;
  /** Signals (no row, no seq: typing): what the announcement carries beside the change fields. */
  signal?: Record<string, unknown>;
};
export type ChangeHandler = (change: Change) => void;

export type ChangeFeedOptions = {
  /** How often the feed checks it still hears its own announcements (PostgreSQL only). */
  heartbeatMs?: number;
  /** A ping unheard for this long means the feed is not delivering. */
  timeoutMs?: number;
};

/** Heartbeat announcements on the channel; never passed to subscribers. */
const PING_TABLE = 'titan_feed_ping';
const MAX_PINGS = 100;

type Ping = { sentAt: number; committed: boolean };

export class ChangeFeed {
  private readonly handlers = new Set<ChangeHandler>();
  private readonly resetHandlers = new Set<() => void>();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly heartbeatMs: number;
  private readonly timeoutMs: number;
  private heartbeat: NodeJS.Timeout | null = null;
  private readonly instanceId = randomUUID();
  private pingSeq = 0;
  private pinging = false;
  /** Pings sent and not yet heard back, oldest first. */
  private readonly pings = new Map<number, Ping>();
  private lost = false;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    options: ChangeFeedOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 1_000;
    this.timeoutMs = options.timeoutMs ?? 3_000;
  }

  async start(): Promise<void> {
    this.unlisten = await this.database.listen(
      CHANGE_CHANNEL,
      (payload) => this.dispatch(payload),
      () => this.reset(),
    );
    // PGlite's listener lives in-process and cannot drop.
    if (this.database.kind === 'postgres') {
      this.heartbeat = setInterval(() => void this.ping(), this.heartbeatMs);
      this.heartbeat.unref();
    }
  }

  subscribe(handler: ChangeHandler): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * Announces something that is no row (a typing signal) to every instance, this one included.
   * Best effort, outside any transaction: nothing is stored and nothing is replayed.
   */
  async publish(change: Change): Promise<void> {
    await this.database.notify(CHANGE_CHANNEL, JSON.stringify(change));
  }

  /** Called when changes may have gone undelivered (the connection dropped, or came back). */
  onReset(handler: () => void): () => void {
    this.resetHandlers.add(handler);
    return () => this.resetHandlers.delete(handler);
  }

  /** False while the feed is known not to be delivering (its own pings do not come back). */
  get healthy(): boolean {
    return !this.lost;
  }

  private async ping(): Promise<void> {
    const oldest = this.pings.values().next().value;
    if (oldest && Date.now() - oldest.sentAt > this.timeoutMs && !this.lost) {
      this.lost = true;
      this.logger.warn('change feed is not delivering; caches fed by it are off until it is');
      this.reset();
    }
    // One ping at a time: each is committed before the next is sent, so they arrive in order.
    if (this.pinging) return;
    this.pinging = true;
    const seq = ++this.pingSeq;
    const ping: Ping = { sentAt: Date.now(), committed: false };
    this.pings.set(seq, ping);
    if (this.pings.size > MAX_PINGS) this.pings.delete(this.pings.keys().next().value!);
    const payload = JSON.stringify({ table: PING_TABLE, op: 'INSERT', id: `${this.instanceId}:${seq}` });
    try {
      // Not through the request pool: a saturated pool would delay the ping past the timeout
      // and switch the caches fed by this feed off exactly when the instance is busiest.
      await this.database.notify(CHANGE_CHANNEL, payload);
      ping.committed = true;
    } catch {
      this.pings.delete(seq);
    } finally {
      this.pinging = false;
    }
  }

  private heard(id: string | null): void {
    const [instance, seqText] = (id ?? '').split(':');
    const seq = Number(seqText);
    if (instance !== this.instanceId || !this.pings.has(seq)) return;
    // An earlier ping that was committed yet never arrived: the connection dropped in between.
    let missed = false;
    for (const [s, ping] of this.pings) {
      if (s > seq) break;
      if (s < seq && ping.committed) missed = true;
      this.pings.delete(s);
    }
    if (this.lost || missed) {
      this.lost = false;
      this.logger.warn('change feed missed announcements; caches fed by it start over');
      this.reset();
    }
  }

  private reset(): void {
    for (const handler of this.resetHandlers) {
      try {
        handler();
      } catch (err) {
        this.logger.error({ err }, 'change feed reset handler failed');
      }
    }
  }

  private dispatch(payload: string): void {
    let change: Change;
    try {
      change = JSON.parse(payload) as Change;
    } catch (err) {
      this.logger.error({ err }, 'unreadable change notification');
      return;
    }
    if (change.table === PING_TABLE) return this.heard(change.id);
    for (const handler of this.handlers) {
      try {
        handler(change);
      } catch (err) {
        this.logger.error({ err, table: change.table }, 'change handler failed');
      }
    }
  }

  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.handlers.clear();
    this.resetHandlers.clear();
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.();
  }
}
