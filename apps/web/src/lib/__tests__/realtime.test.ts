import { waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { fakeRealtime } from '../../test/realtime';
import { RealtimeClient, realtimeUrl } from '../realtime';

function client(getToken = vi.fn(async () => 'token-1')) {
  return {
    getToken,
    realtime: new RealtimeClient({ url: () => realtimeUrl(), getToken, backoffMs: () => 10, idleMs: 0 }),
  };
}

const conversation = {
  id: 1,
  title: 'Hello',
  status: 'active',
  is_read: false,
  channel: 'titan_message',
  initiator: null,
  assigned_chat_group: null,
  assignee: null,
  snoozed_until: null,
  labels: [],
  last_message_preview: null,
  sla: { first_response_due_at: null, resolution_due_at: null, breached: false },
  last_message_at: '2026-03-01T10:00:00.000Z',
  created_at: '2026-03-01T10:00:00.000Z',
  business_replied: false,
  engage_business_id: 1,
  spam: false,
};

describe('realtime client', () => {
  it('answers ws:// on http pages and wss:// on https pages', () => {
    expect(realtimeUrl({ protocol: 'http:', host: 'a.test:3000' })).toBe('ws://a.test:3000/api/realtime/');
    expect(realtimeUrl({ protocol: 'https:', host: 'a.test' })).toBe('wss://a.test/api/realtime/');
  });

  it('authenticates, subscribes with the filter and delivers changes with matches', async () => {
    const server = fakeRealtime({ seq: 7 });
    const { realtime } = client();
    const onChange = vi.fn();
    const onResync = vi.fn();
    const stop = realtime.subscribe(
      { topic: 'conversations', business_code: 'ACME', filter: { status: 'active' } },
      { onChange, onResync },
    );

    await waitFor(() => expect(server.subscriptions()).toHaveLength(1));
    expect(server.sent[0]).toEqual({ type: 'auth', token: 'token-1' });
    expect(server.subscriptions()[0]).toEqual({
      type: 'subscribe',
      id: expect.any(String),
      topic: 'conversations',
      business_code: 'ACME',
      filter: { status: 'active' },
    });
    // A fresh subscription asks the screen to refetch what it fetched before subscribing.
    await waitFor(() => expect(onResync).toHaveBeenCalledTimes(1));

    server.change('conversations', {
      table: 'conversations',
      event: 'UPDATE',
      new: conversation,
      old: { last_message_at: null },
      matches: false,
    });
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(onChange.mock.calls[0]![0]).toMatchObject({ seq: 8, matches: false, new: { id: 1 } });
    stop();
  });

  it('sends typing over a ready socket and hands typing signals to their subscription', async () => {
    const server = fakeRealtime();
    const { realtime } = client();
    // Before the socket is ready a typing hint is dropped, never queued.
    realtime.typing(3);
    const onTyping = vi.fn();
    const stop = realtime.subscribe(
      { topic: 'messages', conversation_id: 3 },
      { onChange: vi.fn(), onResync: vi.fn(), onTyping },
    );
    const presence = realtime.subscribe(
      { topic: 'presence', business_code: 'ACME' },
      { onChange: vi.fn(), onResync: vi.fn() },
    );
    await waitFor(() => expect(server.subscriptions()).toHaveLength(2));
    expect(server.subscriptions()[1]).toEqual({
      type: 'subscribe',
      id: expect.any(String),
      topic: 'presence',
      business_code: 'ACME',
    });
    realtime.typing(3);
    await waitFor(() =>
      expect(server.sent.filter((m) => m.type === 'typing')).toEqual([
        { type: 'typing', conversation_id: 3 },
      ]),
    );
    const sub = server.subscriptions()[0]!.id;
    server.push({ type: 'typing', sub, conversation_id: 3, who: { type: 'customer', id: 5, name: 'Ann' } });
    // Malformed signals are ignored.
    server.push({ type: 'typing', sub, conversation_id: 3 });
    await waitFor(() => expect(onTyping).toHaveBeenCalledTimes(1));
    expect(onTyping.mock.calls[0]![0]).toMatchObject({ who: { name: 'Ann' }, conversation_id: 3 });
    stop();
    presence();
  });

  it('answers pings with pongs', async () => {
    const server = fakeRealtime();
    const { realtime } = client();
    const stop = realtime.subscribe(
      { topic: 'messages', conversation_id: 3 },
      { onChange: vi.fn(), onResync: vi.fn() },
    );
    await waitFor(() => expect(server.subscriptions()).toHaveLength(1));
    server.push({ type: 'ping' });
    await waitFor(() => expect(server.sent.some((m) => m.type === 'pong')).toBe(true));
    stop();
  });

  it('reconnects with a fresh token after 4001 and resumes from the last seq seen', async () => {
    const server = fakeRealtime({ seq: 20 });
    const tokens = ['token-1', 'token-2'];
    const { realtime, getToken } = client(vi.fn(async () => tokens.shift() ?? 'token-x'));
    const onChange = vi.fn();
    const stop = realtime.subscribe(
      { topic: 'messages', conversation_id: 3 },
      { onChange, onResync: vi.fn() },
    );
    await waitFor(() => expect(server.subscriptions()).toHaveLength(1));
    server.change('messages', { table: 'messages', event: 'INSERT', new: { nope: true }, old: null });
    server.change('messages', {
      table: 'messages',
      event: 'INSERT',
      old: null,
      new: {
        id: 5,
        conversation_id: 3,
        content: 'hi',
        created_at: '2026-03-01T10:00:00.000Z',
        is_read: false,
        sender_id: null,
        sender_type: 'customer',
        message_type: 'text',
        meta_data: {},
        status: 'sent',
        timestamp: 1,
        sender: null,
      },
    });
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));

    server.closeAll(4001, 'token expired');
    await waitFor(() => expect(server.subscriptions()).toHaveLength(2));
    expect(getToken).toHaveBeenCalledTimes(2);
    expect(server.sent.filter((m) => m.type === 'auth').map((m) => m.token)).toEqual(['token-1', 'token-2']);
    // The invalid change (seq 21) was not delivered; the valid one (seq 22) was the last seen.
    expect(server.subscriptions()[1]).toMatchObject({ topic: 'messages', conversation_id: 3, after_seq: 22 });
    stop();
  });

  it('reconnects with backoff after other closes and refetches on resync', async () => {
    const server = fakeRealtime();
    const { realtime } = client();
    const onResync = vi.fn();
    const stop = realtime.subscribe(
      { topic: 'conversations', business_code: 'ACME' },
      { onChange: vi.fn(), onResync },
    );
    await waitFor(() => expect(onResync).toHaveBeenCalledTimes(1));
    server.closeAll(1011, 'server error');
    await waitFor(() => expect(server.connections()).toBe(2));
    await waitFor(() => expect(server.subscriptions()).toHaveLength(2));
    const resumed = server.subscriptions()[1]!;
    expect(resumed.after_seq).toBe(100);
    server.push({ type: 'resync', id: resumed.id });
    await waitFor(() => expect(onResync).toHaveBeenCalledTimes(2));
    stop();
  });
});
