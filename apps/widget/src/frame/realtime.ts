// The visitor's live feed (api.md "Realtime"): one WebSocket, authenticated with the visitor
// token, that resubscribes after a reconnect and resumes from the last event it saw.
import type { TRealtimeChange, TRealtimeServerMessage, TRealtimeTyping } from '@titan/contracts';
import {
  REALTIME_CLOSE_TOKEN_EXPIRED,
  REALTIME_CLOSE_UNAUTHORIZED,
  REALTIME_PATH,
} from '@titan/contracts/constants';

export type TTopic =
  { topic: 'messages'; conversation_id: number } | { topic: 'conversations'; business_code: string };

export type RealtimeHandlers = {
  onChange(change: TRealtimeChange): void;
  /** The server could not replay what was missed: refetch what this subscription shows. */
  onResync(topic: TTopic): void;
  /** The token is no longer accepted; a new visitor session is needed. */
  onUnauthorized(): void;
  /** A staff member is typing in a conversation this visitor follows. */
  onTyping?(typing: TRealtimeTyping): void;
};

/**
 * `catchUp`: what happened before the server acknowledged the subscription is not replayed to one
 * without a sequence — and a conversation the visitor just started can be answered within a second
 * (the AI first responder). Such a subscription's view is fetched once, when the server acknowledges
 * it, so nothing between the page's last fetch and the live feed is missed.
 */
type Sub = { topic: TTopic; seq: number | undefined; catchUp: boolean };

const MAX_BACKOFF_MS = 30_000;
/** The visitor's "I am typing" goes out at most this often per conversation (the server drops more). */
export const TYPING_SEND_EVERY_MS = 2_500;

export class VisitorSocket {
  private socket: WebSocket | null = null;
  private ready = false;
  private stopped = false;
  private attempts = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private readonly subs = new Map<string, Sub>();
  private readonly typedAt = new Map<number, number>();

  constructor(
    private readonly token: string,
    private readonly handlers: RealtimeHandlers,
  ) {
    this.connect();
  }

  subscribe(id: string, topic: TTopic, opts: { catchUp?: boolean } = {}): void {
    if (this.subs.has(id)) return;
    const sub: Sub = { topic, seq: undefined, catchUp: opts.catchUp ?? false };
    this.subs.set(id, sub);
    if (this.ready) this.sendSubscribe(id, sub);
  }

  /** Tells staff the visitor is typing in a conversation (throttled; nothing while disconnected). */
  typing(conversationId: number, now = Date.now()): void {
    if (!this.ready) return;
    const last = this.typedAt.get(conversationId);
    if (last !== undefined && now - last < TYPING_SEND_EVERY_MS) return;
    this.typedAt.set(conversationId, now);
    this.socket?.send(JSON.stringify({ type: 'typing', conversation_id: conversationId }));
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.retry);
    this.socket?.close(1000);
  }

  private connect(): void {
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${window.location.host}${REALTIME_PATH}`);
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token: this.token }));
    socket.onmessage = (event) => {
      let message: TRealtimeServerMessage;
      try {
        message = JSON.parse(String(event.data)) as TRealtimeServerMessage;
      } catch {
        return;
      }
      this.onMessage(message);
    };
    socket.onclose = (event) => {
      this.ready = false;
      if (this.stopped) return;
      if (event.code === REALTIME_CLOSE_UNAUTHORIZED || event.code === REALTIME_CLOSE_TOKEN_EXPIRED) {
        this.stopped = true;
        this.handlers.onUnauthorized();
        return;
      }
      const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** this.attempts) * (0.5 + Math.random() / 2);
      this.attempts += 1;
      this.retry = setTimeout(() => this.connect(), delay);
    };
  }

  private onMessage(message: TRealtimeServerMessage): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.attempts = 0;
        for (const [id, sub] of this.subs) this.sendSubscribe(id, sub);
        return;
      case 'subscribed': {
        const sub = this.subs.get(message.id);
        if (!sub) return;
        if (sub.seq === undefined) sub.seq = message.seq;
        if (sub.catchUp) {
          sub.catchUp = false;
          this.handlers.onResync(sub.topic);
        }
        return;
      }
      case 'change': {
        const sub = this.subs.get(message.sub);
        if (!sub) return;
        sub.seq = Math.max(sub.seq ?? 0, message.seq);
        this.handlers.onChange(message);
        return;
      }
      case 'resync': {
        const sub = this.subs.get(message.id);
        if (sub) this.handlers.onResync(sub.topic);
        return;
      }
      case 'ping':
        this.socket?.send(JSON.stringify({ type: 'pong' }));
        return;
      case 'typing':
        this.handlers.onTyping?.(message);
        return;
      case 'unsubscribed':
      case 'error':
        return;
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }

  private sendSubscribe(id: string, sub: Sub): void {
    this.socket?.send(
      JSON.stringify({
        type: 'subscribe',
        id,
        ...sub.topic,
        ...(sub.seq !== undefined ? { after_seq: sub.seq } : {}),
      }),
    );
  }
}
