import { afterEach, describe, expect, it, vi } from 'vitest';
import { VisitorSocket, type TTopic } from '../realtime';

/** A WebSocket that records what the widget sends and lets the test play the server. */
class FakeSocket {
  static last: FakeSocket | null = null;
  sent: Record<string, unknown>[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: string }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {}
  serve(message: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

afterEach(() => {
  FakeSocket.last = null;
});

function open() {
  vi.stubGlobal('WebSocket', FakeSocket);
  const resynced: TTopic[] = [];
  const live = new VisitorSocket('visitor-token', {
    onChange: () => {},
    onResync: (topic) => resynced.push(topic),
    onUnauthorized: () => {},
  });
  const socket = FakeSocket.last!;
  socket.onopen?.();
  return { live, socket, resynced };
}

describe('the visitor socket', () => {
  it('fetches a conversation it is told to catch up on once the server acknowledges it, so a fast first answer is not missed', () => {
    const { live, socket, resynced } = open();
    live.subscribe('conversations', { topic: 'conversations', business_code: 'shop' });
    socket.serve({ type: 'ready' });
    socket.serve({ type: 'subscribed', id: 'conversations', seq: 4 });
    expect(resynced).toEqual([]);

    live.subscribe('m7', { topic: 'messages', conversation_id: 7 }, { catchUp: true });
    expect(socket.sent.at(-1)).toEqual({
      type: 'subscribe',
      id: 'm7',
      topic: 'messages',
      conversation_id: 7,
    });
    expect(resynced).toEqual([]);
    socket.serve({ type: 'subscribed', id: 'm7', seq: 12 });
    expect(resynced).toEqual([{ topic: 'messages', conversation_id: 7 }]);
    // Only once: a later acknowledgement (after a reconnect) resumes from the sequence instead.
    socket.serve({ type: 'subscribed', id: 'm7', seq: 15 });
    expect(resynced).toHaveLength(1);
  });

  it('catches up even when subscribed before the socket is ready; other subscriptions are not fetched again', () => {
    const { live, socket, resynced } = open();
    live.subscribe('m5', { topic: 'messages', conversation_id: 5 }, { catchUp: true });
    live.subscribe('m3', { topic: 'messages', conversation_id: 3 });
    socket.serve({ type: 'ready' });
    expect(socket.sent.at(-1)).toMatchObject({ type: 'subscribe', id: 'm3' });
    socket.serve({ type: 'subscribed', id: 'm3', seq: 2 });
    expect(resynced).toEqual([]);
    socket.serve({ type: 'subscribed', id: 'm5', seq: 2 });
    expect(resynced).toEqual([{ topic: 'messages', conversation_id: 5 }]);
  });
});
