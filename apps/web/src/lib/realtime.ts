// The realtime connection (api.md "Realtime"): one WebSocket per page at /api/realtime/, opened while
// anything is subscribed. It authenticates with a fresh access token, (re)subscribes every
// subscription, answers pings, and when the socket closes it reconnects (at once with a new token when
// the token expired, with backoff otherwise) and resumes each subscription from the last seq it saw.
import {
  REALTIME_CLOSE_TOKEN_EXPIRED,
  REALTIME_PATH,
  ZRealtimeChange,
  ZRealtimeTyping,
  type TRealtimeClientMessage,
  type TRealtimeTyping,
} from '@titan/contracts';
import { z } from 'zod';

import { registerClientStateReset } from './client-state';
import { ensureAccessToken } from './session/refresh';

/** A change event, with the conversations topic's `matches` (docs/design/platform.md: realtime). */
export const ZLiveChange = ZRealtimeChange;
export type TLiveChange = z.infer<typeof ZLiveChange>;

export type TSubscriptionTopic =
  | { topic: 'conversations'; business_code: string; filter?: Record<string, string> }
  | { topic: 'messages'; conversation_id: number; business_code?: string }
  | { topic: 'imports'; business_code: string; import_id?: string }
  | { topic: 'notifications'; business_code: string }
  | { topic: 'presence'; business_code: string };

export type TSubscriptionHandlers = {
  onChange: (change: TLiveChange) => void;
  /** The server could not replay what was missed, or the subscription started afresh: refetch. */
  onResync: () => void;
  /** Whether the subscription is live now: true once subscribed, false when the socket went down. */
  onActive?: (active: boolean) => void;
  /** Messages topic only: someone else is typing in the conversation (never stored or replayed). */
  onTyping?: (typing: TRealtimeTyping) => void;
};

type TSubscription = {
  id: string;
  topic: TSubscriptionTopic;
  handlers: TSubscriptionHandlers;
  /** The last seq seen; null until the first `subscribed`. */
  lastSeq: number | null;
  /** Whether a `subscribed` was answered on the current socket. */
  active: boolean;
};

type TSocketLike = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
};

export type TRealtimeOptions = {
  url: () => string;
  getToken: () => Promise<string>;
  createSocket?: (url: string) => TSocketLike;
  /** Delay before reconnect attempt n (1-based). */
  backoffMs?: (attempt: number) => number;
  /** How long the socket stays open with nothing subscribed (screens switching subscriptions). */
  idleMs?: number;
};

const OPEN = 1;
const ZServerMessage = z.looseObject({ type: z.string(), id: z.string().optional() });
const ZSubscribed = z.object({ type: z.literal('subscribed'), id: z.string(), seq: z.number().int() });

export function defaultBackoff(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** (attempt - 1));
}

export class RealtimeClient {
  private socket: TSocketLike | null = null;
  private ready = false;
  private readonly subs = new Map<string, TSubscription>();
  private nextId = 1;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private closedOnPurpose = new WeakSet<TSocketLike>();

  constructor(private readonly options: TRealtimeOptions) {}

  subscribe(topic: TSubscriptionTopic, handlers: TSubscriptionHandlers): () => void {
    const id = `${topic.topic}-${this.nextId++}`;
    const sub: TSubscription = { id, topic, handlers, lastSeq: null, active: false };
    this.subs.set(id, sub);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    if (this.socket && this.ready) this.sendSubscribe(sub);
    else this.connect();
    return () => {
      if (!this.subs.delete(id)) return;
      if (this.ready) this.send({ type: 'unsubscribe', id });
      if (this.subs.size === 0 && !this.idleTimer) {
        this.idleTimer = setTimeout(() => {
          this.idleTimer = null;
          if (this.subs.size === 0) this.disconnect();
        }, this.options.idleMs ?? 1000);
      }
    };
  }

  /**
   * Says "I am typing" in a conversation (api.md "Realtime", next-api.md "Team inbox"). A hint: it
   * goes only over a ready socket and is never queued; the server passes it to the conversation's
   * other subscribers (at most one per second and conversation).
   */
  typing(conversationId: number): void {
    if (this.ready) this.send({ type: 'typing', conversation_id: conversationId });
  }

  /** Ends everything: every subscription and the socket (logout). */
  reset(): void {
    this.subs.clear();
    this.disconnect();
  }

  private connect(): void {
    if (this.socket || this.retryTimer) return;
    const create = this.options.createSocket ?? ((url: string) => new WebSocket(url));
    const socket = create(this.options.url());
    this.socket = socket;
    this.ready = false;
    socket.onopen = () => void this.authenticate(socket);
    socket.onmessage = (event) => this.onMessage(socket, event);
    socket.onclose = (event) => this.onClose(socket, event.code);
    socket.onerror = () => {
      // A close event always follows; reconnecting is decided there.
    };
  }

  private disconnect(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.retryTimer = null;
    this.idleTimer = null;
    const socket = this.socket;
    this.socket = null;
    this.ready = false;
    this.attempt = 0;
    if (socket) {
      this.closedOnPurpose.add(socket);
      socket.close(1000, 'done');
    }
  }

  private async authenticate(socket: TSocketLike): Promise<void> {
    let token: string;
    try {
      token = await this.options.getToken();
    } catch {
      // No token can be had now (the session may be ending): try again later.
      if (socket === this.socket) socket.close(4000, 'no token');
      return;
    }
    if (socket === this.socket && socket.readyState === OPEN) this.send({ type: 'auth', token });
  }

  private onMessage(socket: TSocketLike, event: MessageEvent): void {
    if (socket !== this.socket || typeof event.data !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      return;
    }
    const message = ZServerMessage.safeParse(json);
    if (!message.success) return;
    switch (message.data.type) {
      case 'ready':
        this.ready = true;
        this.attempt = 0;
        for (const sub of this.subs.values()) this.sendSubscribe(sub);
        return;
      case 'ping':
        this.send({ type: 'pong' });
        return;
      case 'subscribed': {
        const parsed = ZSubscribed.safeParse(json);
        const sub = parsed.success ? this.subs.get(parsed.data.id) : undefined;
        if (!parsed.success || !sub) return;
        sub.active = true;
        sub.handlers.onActive?.(true);
        if (sub.lastSeq === null) {
          // A fresh subscription: whatever was fetched before it may already be stale.
          sub.lastSeq = parsed.data.seq;
          sub.handlers.onResync();
        }
        return;
      }
      case 'change': {
        const parsed = ZLiveChange.safeParse(json);
        const sub = parsed.success ? this.subs.get(parsed.data.sub) : undefined;
        if (!parsed.success || !sub) return;
        if (sub.lastSeq !== null && parsed.data.seq <= sub.lastSeq) return;
        sub.lastSeq = parsed.data.seq;
        sub.handlers.onChange(parsed.data);
        return;
      }
      case 'resync': {
        const sub = message.data.id ? this.subs.get(message.data.id) : undefined;
        sub?.handlers.onResync();
        return;
      }
      case 'typing': {
        const parsed = ZRealtimeTyping.safeParse(json);
        const sub = parsed.success ? this.subs.get(parsed.data.sub) : undefined;
        if (parsed.success) sub?.handlers.onTyping?.(parsed.data);
        return;
      }
      case 'error':
        console.warn('Realtime:', json);
        return;
      default:
        return;
    }
  }

  private onClose(socket: TSocketLike, code: number): void {
    if (this.closedOnPurpose.has(socket) || socket !== this.socket) return;
    this.socket = null;
    this.ready = false;
    for (const sub of this.subs.values()) {
      sub.active = false;
      sub.handlers.onActive?.(false);
    }
    if (this.subs.size === 0) return;
    // An expired token: reconnect at once, the next auth refreshes it first.
    if (code === REALTIME_CLOSE_TOKEN_EXPIRED) {
      this.connect();
      return;
    }
    this.attempt += 1;
    const delay = (this.options.backoffMs ?? defaultBackoff)(this.attempt);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.subs.size > 0) this.connect();
    }, delay);
  }

  private sendSubscribe(sub: TSubscription): void {
    const resume = sub.lastSeq === null ? {} : { after_seq: sub.lastSeq };
    const { topic } = sub;
    if (topic.topic === 'imports') {
      this.send({
        type: 'subscribe',
        id: sub.id,
        topic: 'imports',
        business_code: topic.business_code,
        ...(topic.import_id ? { import_id: topic.import_id } : {}),
        ...resume,
      });
    } else if (topic.topic === 'notifications' || topic.topic === 'presence') {
      this.send({
        type: 'subscribe',
        id: sub.id,
        topic: topic.topic,
        business_code: topic.business_code,
        ...resume,
      });
    } else if (topic.topic === 'conversations') {
      this.send({
        type: 'subscribe',
        id: sub.id,
        topic: 'conversations',
        business_code: topic.business_code,
        ...(topic.filter ? { filter: topic.filter } : {}),
        ...resume,
      });
    } else {
      this.send({
        type: 'subscribe',
        id: sub.id,
        topic: 'messages',
        conversation_id: topic.conversation_id,
        ...(topic.business_code ? { business_code: topic.business_code } : {}),
        ...resume,
      });
    }
  }

  private send(message: TRealtimeClientMessage): void {
    if (this.socket && this.socket.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }
}

/** ws:// or wss:// on this page's own origin. */
export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${REALTIME_PATH}`;
}

let shared: RealtimeClient | null = null;

/** The page's one realtime connection; logout ends it. */
export function realtimeClient(): RealtimeClient {
  if (!shared) {
    const client = new RealtimeClient({ url: () => realtimeUrl(), getToken: ensureAccessToken });
    shared = client;
    const unregister = registerClientStateReset(() => {
      client.reset();
      if (shared === client) shared = null;
      unregister();
    });
  }
  return shared;
}
