// Live updates over WebSocket (api.md "Realtime"). Each instance keeps its own sockets and
// listens to the database change feed; a changed row is loaded once per instance and fanned
// out to every matching subscription, so any number of instances serve one business.
import {
  REALTIME_CLOSE_TOKEN_EXPIRED,
  REALTIME_CLOSE_UNAUTHORIZED,
  REALTIME_PING_INTERVAL_MS,
  ZRealtimeClientMessage,
  type TConversation,
  type TConversationFilter,
  type TMessage,
  type TPermission,
  type TPublicMessage,
  type TRealtimeClientMessageParsed,
  type TRealtimeServerMessage,
} from '@titan/contracts';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import type { ChangeFeed, Change } from '../../platform/change-feed';
import {
  findBusinessByCode,
  findMembershipByCode,
  findMembershipRole,
} from '../business/business.repository';
import { ROLE_PERMISSIONS } from '../business/roles';
import { findLiveSession } from '../auth/auth.repository';
import type { AccessTokens } from '../auth/tokens';
import { toPublicMessage } from '../public-chat/public-view';
import type { VisitorTokens } from '../public-chat/visitor-tokens';
import * as inbox from '../conversations/conversations.service';
import { scopeFor } from '../conversations/inbox-scope';

/** Replays at most this many missed changes; beyond it the client is told to refetch. */
const REPLAY_LIMIT = 500;

export type RealtimeDeps = inbox.InboxDeps & {
  feed: ChangeFeed;
  tokens: AccessTokens;
  visitorTokens: VisitorTokens;
  logger: Logger;
};

type Subscription = {
  id: string;
  conn: Connection;
  businessId: number;
  topic: 'conversations' | 'messages';
  filter: TConversationFilter;
  /** Agents: the chat groups whose conversations they may see (null = all). */
  groupIds: number[] | null;
  /** Visitors: only conversations this customer started. */
  initiatorId: number | null;
  conversationId: number | null;
  /** Live changes wait here while missed ones are replayed, so order is kept. */
  pending: Change[] | null;
  /**
   * Seqs already sent. Seqs are taken inside transactions but announced at commit, so they can
   * arrive out of order: a high-water mark would drop the late ones; a window of seen seqs does not.
   */
  seen: Set<number>;
};

const SEEN_WINDOW = 4096;

type Connection = {
  socket: WebSocket;
  userId: number | null;
  visitor: { customerId: number; businessId: number } | null;
  subs: Map<string, Subscription>;
  alive: boolean;
  expiry: NodeJS.Timeout | null;
};

const INBOX_PERMISSION: TPermission = 'inbox.use';

export class RealtimeHub {
  private readonly connections = new Set<Connection>();
  private readonly byBusiness = new Map<number, Set<Subscription>>();
  private stopFeed: (() => void) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly deps: RealtimeDeps) {}

  start(): void {
    this.stopFeed = this.deps.feed.subscribe((change) => void this.onChange(change));
    this.heartbeat = setInterval(() => this.beat(), REALTIME_PING_INTERVAL_MS);
    this.heartbeat.unref();
  }

  stop(): void {
    this.stopFeed?.();
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const conn of this.connections) conn.socket.close(1001, 'server shutting down');
  }

  accept(socket: WebSocket): void {
    const conn: Connection = {
      socket,
      userId: null,
      visitor: null,
      subs: new Map(),
      alive: true,
      expiry: null,
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
    this.connections.delete(conn);
  }

  private unindex(sub: Subscription): void {
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
    const claims = this.deps.tokens.verify(token);
    let exp: number;
    if (claims && (await findLiveSession(this.deps.db, claims.sessionId, claims.userId))) {
      conn.userId = claims.userId;
      exp = claims.exp;
    } else {
      const visitor = await this.deps.visitorTokens.verify(token);
      if (!visitor) {
        conn.socket.close(REALTIME_CLOSE_UNAUTHORIZED, 'invalid token');
        return;
      }
      conn.visitor = { customerId: visitor.customerId, businessId: visitor.businessId };
      exp = visitor.exp;
    }
    if (conn.expiry) clearTimeout(conn.expiry);
    // The socket lives as long as its token: the client reconnects with a fresh one and resumes.
    conn.expiry = setTimeout(
      () => conn.socket.close(REALTIME_CLOSE_TOKEN_EXPIRED, 'token expired'),
      Math.min(Math.max(0, exp * 1000 - Date.now()), 2 ** 31 - 1),
    );
    conn.expiry.unref();
    send(conn, { type: 'ready' });
  }

  private async subscribe(
    conn: Connection,
    msg: Extract<TRealtimeClientMessageParsed, { type: 'subscribe' }>,
  ): Promise<void> {
    if (conn.userId === null && conn.visitor === null) {
      return send(conn, { type: 'error', id: msg.id, message: 'Authenticate first.' });
    }
    const denied = () =>
      send(conn, { type: 'error', id: msg.id, message: 'You do not have access to this subscription.' });

    let businessId: number;
    let conversationId: number | null = null;
    let groupIds: number[] | null = null;
    let initiatorId: number | null = null;
    if (conn.visitor) {
      // Visitors reach only the conversations they started.
      const visitor = conn.visitor;
      businessId = visitor.businessId;
      initiatorId = visitor.customerId;
      if (msg.topic === 'conversations') {
        const business = await findBusinessByCode(this.deps.db, msg.business_code);
        if (business?.id !== visitor.businessId) return denied();
      } else {
        const loaded = await inbox.loadChangedRow(this.deps, 'conversations', String(msg.conversation_id));
        const row = loaded?.row as TConversation | undefined;
        if (
          !loaded ||
          loaded.businessId !== visitor.businessId ||
          row?.initiator?.id !== visitor.customerId ||
          row.channel !== 'titan_message'
        ) {
          return denied();
        }
        conversationId = loaded.conversationId;
      }
    } else if (msg.topic === 'conversations') {
      const membership = await findMembershipByCode(this.deps.db, conn.userId!, msg.business_code);
      if (!membership || !ROLE_PERMISSIONS[membership.role].includes(INBOX_PERMISSION)) return denied();
      businessId = membership.businessId;
      groupIds = (await scopeFor(this.deps.db, businessId, membership.role, conn.userId)).groupIds;
    } else {
      const loaded = await inbox.loadChangedRow(this.deps, 'conversations', String(msg.conversation_id));
      const role = loaded ? await findMembershipRole(this.deps.db, loaded.businessId, conn.userId!) : null;
      if (!loaded || !role || !ROLE_PERMISSIONS[role].includes(INBOX_PERMISSION)) return denied();
      groupIds = (await scopeFor(this.deps.db, loaded.businessId, role, conn.userId)).groupIds;
      if (!visibleTo(groupIds, loaded.row as TConversation)) return denied();
      businessId = loaded.businessId;
      conversationId = loaded.conversationId;
    }

    const previous = conn.subs.get(msg.id);
    if (previous) this.unindex(previous);
    const sub: Subscription = {
      id: msg.id,
      conn,
      businessId,
      topic: msg.topic,
      filter: msg.topic === 'conversations' ? (msg.filter ?? {}) : {},
      groupIds,
      initiatorId,
      conversationId,
      pending: [],
      seen: new Set(),
    };
    conn.subs.set(msg.id, sub);
    let set = this.byBusiness.get(businessId);
    if (!set) this.byBusiness.set(businessId, (set = new Set()));
    set.add(sub);

    const current = await inbox.latestSeq(this.deps.db, businessId);
    send(conn, { type: 'subscribed', id: msg.id, seq: current });
    if (msg.after_seq !== undefined && msg.after_seq < current) await this.replay(sub, msg.after_seq);
    const waiting = sub.pending ?? [];
    sub.pending = null;
    for (const change of waiting) await this.deliver(sub, change);
  }

  /** Sends what the subscriber missed since `afterSeq`, or asks it to refetch when too much. */
  private async replay(sub: Subscription, afterSeq: number): Promise<void> {
    const oldest = await inbox.oldestSeq(this.deps.db);
    const missed = await inbox.changesAfter(this.deps.db, sub.businessId, afterSeq, REPLAY_LIMIT + 1);
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
    const ready = [...subs].filter((s) => !s.pending && this.wants(s, change));
    if (ready.length === 0) return;
    const loaded = await inbox.loadChangedRow(this.deps, change.table, change.id);
    if (!loaded) return;
    // Serialised once for every staff subscriber of this instance, once for every visitor one.
    const body = JSON.stringify(loaded.row);
    let visitorBody: string | undefined;
    for (const sub of ready) {
      if (sub.conn.visitor) visitorBody ??= JSON.stringify(forVisitor(change.table, loaded.row));
      this.emit(sub, change, loaded.row, sub.conn.visitor ? visitorBody! : body);
    }
  }

  private wants(sub: Subscription, change: Change): boolean {
    if (sub.topic === 'conversations') return change.table === 'conversations';
    return (
      (change.table === 'messages' || change.table === 'wa_messages') &&
      Number(change.conversation_id) === sub.conversationId
    );
  }

  private async deliver(sub: Subscription, change: Change): Promise<void> {
    if (change.seq === undefined || sub.seen.has(change.seq) || !change.id || !this.wants(sub, change))
      return;
    const loaded = await inbox.loadChangedRow(this.deps, change.table, change.id);
    if (!loaded) return;
    const row = sub.conn.visitor ? forVisitor(change.table, loaded.row) : loaded.row;
    this.emit(sub, change, loaded.row, JSON.stringify(row));
  }

  private emit(sub: Subscription, change: Change, row: TConversation | TMessage, body: string): void {
    const seq = change.seq!;
    if (sub.seen.has(seq)) return;
    let matches = true;
    if (sub.topic === 'conversations') {
      // Rows outside an agent's groups are never sent, not even as "left the filter".
      if (!visibleTo(sub.groupIds, row as TConversation)) return;
      if (
        sub.initiatorId !== null &&
        ((row as TConversation).initiator?.id !== sub.initiatorId ||
          (row as TConversation).channel !== 'titan_message')
      )
        return;
      matches = inbox.matchesFilter(row as TConversation, sub.filter);
      // A row that left the filter is still announced (matches: false) so lists can drop it.
      if (!matches && change.op === 'INSERT') return;
    }
    sub.seen.add(seq);
    if (sub.seen.size > SEEN_WINDOW) sub.seen.delete(sub.seen.values().next().value!);
    const old =
      change.table === 'conversations' && change.op === 'UPDATE'
        ? { last_message_at: change.old_last_message_at ?? null }
        : null;
    // The row is already JSON; only the envelope around it differs per subscription.
    const head = JSON.stringify({ type: 'change', sub: sub.id, seq, table: change.table, event: change.op });
    const tail = `,"new":${body},"old":${JSON.stringify(old)}${sub.topic === 'conversations' ? `,"matches":${matches}` : ''}}`;
    sendRaw(sub.conn, head.slice(0, -1) + tail);
  }
}

/** Visitors get messages with the public sender shape (display name and avatar only). */
function forVisitor(table: string, row: TConversation | TMessage): TConversation | TPublicMessage {
  return table === 'conversations' ? row : toPublicMessage(row as TMessage);
}

function visibleTo(groupIds: number[] | null, conversation: TConversation): boolean {
  const group = conversation.assigned_chat_group;
  return groupIds === null || group === null || groupIds.includes(group.id);
}

function send(conn: Connection, message: TRealtimeServerMessage): void {
  sendRaw(conn, JSON.stringify(message));
}

function sendRaw(conn: Connection, json: string): void {
  if (conn.socket.readyState === conn.socket.OPEN) conn.socket.send(json);
}
