// A WebSocket test client that queues server messages and waits for the ones a test expects.
import WebSocket from 'ws';

export type WsMessage = { type: string; [key: string]: unknown };

export class WsClient {
  readonly received: WsMessage[] = [];
  private waiters: { match: (m: WsMessage) => boolean; resolve: (m: WsMessage) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as WsMessage;
      this.received.push(msg);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(msg)) return true;
        w.resolve(msg);
        return false;
      });
    });
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  static async open(url: string): Promise<WsClient> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new WsClient(socket);
  }

  send(message: object): void {
    this.socket.send(JSON.stringify(message));
  }

  /** The first message (already received or arriving later) that matches; it is consumed. */
  next(match: (m: WsMessage) => boolean = () => true, timeoutMs = 10_000): Promise<WsMessage> {
    const index = this.received.findIndex(match);
    if (index >= 0) return Promise.resolve(this.received.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (m: WsMessage) => {
          clearTimeout(timer);
          this.received.splice(this.received.indexOf(m), 1);
          resolve(m);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(`no matching message in ${timeoutMs} ms; received ${JSON.stringify(this.received)}`),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Collects what arrives over `ms` without consuming it from later `next` calls. */
  async quietFor(ms: number): Promise<WsMessage[]> {
    const before = this.received.length;
    await new Promise((r) => setTimeout(r, ms));
    return this.received.slice(before);
  }

  close(): void {
    this.socket.close();
  }
}

export async function authenticated(url: string, token: string): Promise<WsClient> {
  const client = await WsClient.open(url);
  client.send({ type: 'auth', token });
  await client.next((m) => m.type === 'ready');
  return client;
}
