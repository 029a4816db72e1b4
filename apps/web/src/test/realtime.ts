// A fake of the server's realtime endpoint (api.md "Realtime") for unit tests, on msw's WebSocket
// interception: it answers auth and subscribe like the server, records what clients sent, and lets a
// test push changes, pings, resyncs and closes.
import { REALTIME_PATH } from '@titan/contracts';
import { ws, type WebSocketData } from 'msw';

import { server } from './server';

type TSent = Record<string, unknown> & { type: string };
type TClient = { send: (data: WebSocketData) => void; close: (code?: number, reason?: string) => void };

export type TFakeRealtime = {
  /** Every message any client sent, parsed. */
  sent: TSent[];
  /** Subscribe messages, newest last. */
  subscriptions: () => TSent[];
  /** Sends a change to the newest subscription of the topic. */
  change: (
    topic: 'conversations' | 'messages' | 'imports' | 'notifications' | 'presence',
    change: Record<string, unknown>,
  ) => void;
  /** Sends a raw server message to every connected client. */
  push: (message: Record<string, unknown>) => void;
  /** Closes every connected client with the code. */
  closeAll: (code: number, reason?: string) => void;
  connections: () => number;
};

export function fakeRealtime(options: { seq?: number } = {}): TFakeRealtime {
  const link = ws.link(`ws://${window.location.host}${REALTIME_PATH}`);
  const sent: TSent[] = [];
  const clients = new Set<TClient>();
  let connections = 0;
  let seq = options.seq ?? 100;
  server.use(
    link.addEventListener('connection', ({ client }) => {
      connections += 1;
      clients.add(client);
      client.addEventListener('close', () => clients.delete(client));
      client.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as TSent;
        sent.push(message);
        if (message.type === 'auth') client.send(JSON.stringify({ type: 'ready' }));
        if (message.type === 'subscribe')
          client.send(JSON.stringify({ type: 'subscribed', id: message.id, seq }));
      });
    }),
  );
  const subscriptions = () => sent.filter((m) => m.type === 'subscribe');
  const push = (message: Record<string, unknown>) => {
    for (const client of clients) client.send(JSON.stringify(message));
  };
  return {
    sent,
    subscriptions,
    change: (topic, change) => {
      const sub = subscriptions()
        .filter((s) => s.topic === topic)
        .at(-1);
      if (!sub) throw new Error(`no ${topic} subscription yet`);
      seq += 1;
      push({ type: 'change', sub: sub.id, seq, ...change });
    },
    push,
    closeAll: (code, reason) => {
      for (const client of clients) client.close(code, reason);
    },
    connections: () => connections,
  };
}
