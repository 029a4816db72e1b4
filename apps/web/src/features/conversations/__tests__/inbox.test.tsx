import { FILE_TOO_LARGE_MESSAGE, OWN_CHANNEL_FILE_LIMIT_BYTES, type TConversation } from '@titan/contracts';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { chatGroup, conversation, message, page } from './fixtures';

// The first screen of a run loads its lazy route modules, slower than a second on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

const GRACE = conversation({
  id: 1,
  title: 'Where is my order? It was due on Monday and nothing has arrived yet.',
  is_read: false,
  assigned_chat_group: chatGroup({ id: 3, name: 'Customer Success and Retention Team', slug: 'success' }),
  last_message_at: new Date().toISOString(),
});
const ANON = conversation({
  id: 2,
  title: 'Question about WhatsApp',
  channel: 'whatsapp',
  status: 'resolved',
  initiator: null,
  last_message_at: '2020-05-04T12:00:00.000Z',
});

type TListCall = Record<string, string>;

/** Signed in to Acme with the inbox answering `rows` (filtered by status) and a realtime endpoint. */
function inbox(rows: TConversation[] = [GRACE, ANON], options: { count?: number } = {}) {
  signIn();
  const listCalls: TListCall[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/msg/conversations/', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      listCalls.push(params);
      const shown = rows.filter((c) => !params.status || c.status === params.status);
      return ok(page(shown, options.count ?? shown.length));
    }),
    http.get('/api/msg/conversations/:id/', ({ params }) => {
      const found = rows.find((c) => c.id === Number(params.id));
      return found ? ok(found) : fail(404, 'Not found.');
    }),
  );
  const realtime = fakeRealtime();
  return { listCalls, realtime };
}

function list() {
  return screen.findByRole('list', { name: 'Conversations' });
}

describe('conversation list', () => {
  it('shows each row: name, unread dot, title, status, group cut at 25, channel and time', async () => {
    inbox();
    renderApp('/messages');

    const rows = within(await list()).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Conversations' })).toBeInTheDocument();

    const grace = within(rows[0]!);
    expect(grace.getByText('Grace Hopper')).toBeInTheDocument();
    expect(grace.getByRole('img', { name: 'Unread' })).toBeInTheDocument();
    // The text-fit helper sizes the title (two lines, 16 down to 12 px).
    expect(grace.getByText(GRACE.title)).toHaveClass('line-clamp-2');
    expect(grace.getByText(GRACE.title)).toHaveAttribute('data-font-px');
    expect(grace.getByText('Active')).toBeInTheDocument();
    expect(grace.getByText('Titan')).toBeInTheDocument();
    expect(grace.getByText('Customer Success and Rete...')).toBeInTheDocument();
    expect(grace.getByText(/^\d{1,2}:\d{2} (AM|PM)$/)).toBeInTheDocument();

    const anon = within(rows[1]!);
    expect(anon.getByText('Anonymous Customer')).toBeInTheDocument();
    expect(anon.queryByRole('img', { name: 'Unread' })).toBeNull();
    expect(anon.getByText('Resolved')).toBeInTheDocument();
    expect(anon.getByText('WhatsApp')).toBeInTheDocument();
    expect(anon.getByText('May 4, 2020')).toBeInTheDocument();

    expect(screen.getByText('No conversation selected')).toBeInTheDocument();
    expect(screen.getByText('Select a conversation from the list to view messages')).toBeInTheDocument();
  });

  it('says "No conversations found" when the inbox is empty, without offering to clear filters', async () => {
    inbox([]);
    renderApp('/messages');
    expect(await screen.findByText('No conversations found')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear all filters' })).toBeNull();
  });

  it('toasts the fallback message when the list cannot be fetched', async () => {
    inbox();
    server.use(http.get('/api/msg/conversations/', () => fail(500, 'Internal error')));
    renderApp('/messages');
    // A 5xx is retried once before it counts as failed.
    expect(
      await screen.findByText('Something went wrong while fetching conversations', {}, { timeout: 4000 }),
    ).toBeInTheDocument();
  });

  it("toasts the server's message when it gives one", async () => {
    inbox();
    server.use(
      http.get('/api/msg/conversations/', () => fail(403, 'You do not have permission to do this.')),
    );
    renderApp('/messages');
    expect(await screen.findByText('You do not have permission to do this.')).toBeInTheDocument();
  });

  it('loads the next page when the end of the list scrolls into view, while loaded < count', async () => {
    const observers: Array<(entries: Array<{ isIntersecting: boolean }>) => void> = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: (entries: Array<{ isIntersecting: boolean }>) => void) {
          observers.push(callback);
        }
        observe() {}
        disconnect() {}
      },
    );
    signIn();
    const all = Array.from({ length: 12 }, (_, i) =>
      conversation({ id: i + 1, title: `Conversation ${i + 1}` }),
    );
    const pages: string[] = [];
    server.use(
      http.get('/api/users/profile/', () => ok(profile())),
      http.get('/api/msg/conversations/', ({ request }) => {
        const url = new URL(request.url);
        const number = Number(url.searchParams.get('page'));
        pages.push(`${number}/${url.searchParams.get('page_size')}`);
        return ok(page(all.slice((number - 1) * 10, number * 10), 12));
      }),
    );
    fakeRealtime();
    renderApp('/messages');

    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem'),
      ).toHaveLength(10),
    );
    await waitFor(() => expect(observers.length).toBeGreaterThan(0));
    act(() => observers.at(-1)!([{ isIntersecting: true }]));
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem'),
      ).toHaveLength(12),
    );
    expect(screen.getByText('Conversation 12')).toBeInTheDocument();
    expect(new Set(pages)).toEqual(new Set(['1/10', '2/10']));
    // Everything is loaded: nothing is watched any more.
    const watchers = observers.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(observers.length).toBe(watchers);
  });
});

describe('filters', () => {
  it('applies the chosen filters to the list and the live subscription, with an "Active" badge', async () => {
    const { listCalls, realtime } = inbox();
    renderApp('/messages');
    await list();
    expect(screen.getByRole('button', { name: 'Filter' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const panel = await screen.findByRole('dialog', { name: 'Filters' });
    const status = within(panel).getByLabelText('Status');
    expect(Array.from((status as HTMLSelectElement).options).map((o) => o.text)).toEqual([
      'All',
      'Active',
      'Resolved',
    ]);
    expect(
      Array.from((within(panel).getByLabelText('Channel') as HTMLSelectElement).options).map((o) => o.text),
    ).toEqual(['All', 'WhatsApp', 'Titan Message', 'Email', 'SMS']);
    expect(
      Array.from((within(panel).getByLabelText('Read Status') as HTMLSelectElement).options).map(
        (o) => o.text,
      ),
    ).toEqual(['All', 'Read', 'Unread']);
    expect(
      Array.from((within(panel).getByLabelText('Business Response') as HTMLSelectElement).options).map(
        (o) => o.text,
      ),
    ).toEqual(['All', 'Replied', 'Not Replied']);

    await userEvent.selectOptions(status, 'resolved');
    await userEvent.selectOptions(within(panel).getByLabelText('Channel'), 'whatsapp');
    await userEvent.selectOptions(within(panel).getByLabelText('Read Status'), 'read');
    await userEvent.selectOptions(within(panel).getByLabelText('Business Response'), 'not_replied');
    await userEvent.click(within(panel).getByRole('button', { name: 'Apply Filters' }));

    await waitFor(() =>
      expect(listCalls.at(-1)).toEqual({
        status: 'resolved',
        channel__in: 'whatsapp',
        is_read: 'true',
        business_replied: 'false',
        page: '1',
        page_size: '10',
      }),
    );
    await waitFor(() =>
      expect(realtime.subscriptions().at(-1)).toMatchObject({
        topic: 'conversations',
        business_code: 'ACME1234',
        filter: { status: 'resolved', channel__in: 'whatsapp', is_read: 'true', business_replied: 'false' },
      }),
    );
    expect(screen.getByRole('button', { name: /^Filter/ })).toHaveTextContent('FilterActive');
    expect(within(await list()).getAllByRole('listitem')).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: /^Filter/ }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Filters' })).getByRole('button', {
        name: 'Clear all',
      }),
    );
    await waitFor(() => expect(listCalls.at(-1)).toEqual({ page: '1', page_size: '10' }));
    expect(screen.getByRole('button', { name: /^Filter/ })).toHaveTextContent(/^Filter$/);
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem'),
      ).toHaveLength(2),
    );
  });

  it('picks created dates as dd-MM-yyyy and sends them as ISO bounds', async () => {
    const { listCalls } = inbox();
    renderApp('/messages');
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const panel = await screen.findByRole('dialog', { name: 'Filters' });

    await userEvent.click(within(panel).getByRole('button', { name: 'Created Date After' }));
    const calendar = await screen.findByRole('dialog', { name: 'Created Date After' });
    // Fixed weeks: always six rows of days.
    expect(within(calendar).getAllByRole('row')).toHaveLength(6);
    await userEvent.click(within(calendar).getByRole('button', { name: /15th/ }));
    const today = new Date();
    const picked = new Date(today.getFullYear(), today.getMonth(), 15);
    const dd = `15-${String(picked.getMonth() + 1).padStart(2, '0')}-${picked.getFullYear()}`;
    expect(within(panel).getByRole('button', { name: 'Created Date After' })).toHaveTextContent(dd);

    await userEvent.click(within(panel).getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() => expect(listCalls.at(-1)?.created_at__gte).toBe(picked.toISOString()));
    expect(listCalls.at(-1)?.created_at__lte).toBeUndefined();
  });

  it('picks last message dates as dd-MM-yyyy, sending them to the list and the live subscription', async () => {
    const { listCalls, realtime } = inbox();
    renderApp('/messages');
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const panel = await screen.findByRole('dialog', { name: 'Filters' });

    for (const [label, day] of [
      ['Last Message After', /16th/],
      ['Last Message Before', /20th/],
    ] as const) {
      await userEvent.click(within(panel).getByRole('button', { name: label }));
      const calendar = await screen.findByRole('dialog', { name: label });
      await userEvent.click(within(calendar).getByRole('button', { name: day }));
    }
    const today = new Date();
    const after = new Date(today.getFullYear(), today.getMonth(), 16);
    const before = new Date(today.getFullYear(), today.getMonth(), 20, 23, 59, 59, 999);
    const mm = String(today.getMonth() + 1).padStart(2, '0');
    expect(within(panel).getByRole('button', { name: 'Last Message After' })).toHaveTextContent(
      `16-${mm}-${today.getFullYear()}`,
    );

    await userEvent.click(within(panel).getByRole('button', { name: 'Apply Filters' }));
    await waitFor(() =>
      expect(listCalls.at(-1)).toMatchObject({
        last_message_at__gte: after.toISOString(),
        last_message_at__lte: before.toISOString(),
      }),
    );
    await waitFor(() =>
      expect(realtime.subscriptions().at(-1)).toMatchObject({
        topic: 'conversations',
        filter: { last_message_at__gte: after.toISOString(), last_message_at__lte: before.toISOString() },
      }),
    );
    expect(screen.getByRole('button', { name: /Filter/ })).toHaveTextContent('Active');
  });

  it('offers "Clear all filters" when filters leave the list empty', async () => {
    const { listCalls } = inbox([GRACE]);
    renderApp('/messages');
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    const panel = await screen.findByRole('dialog', { name: 'Filters' });
    await userEvent.selectOptions(within(panel).getByLabelText('Status'), 'resolved');
    await userEvent.click(within(panel).getByRole('button', { name: 'Apply Filters' }));

    expect(await screen.findByText('No conversations found')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear all filters' }));
    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(listCalls.at(-1)).toEqual({ page: '1', page_size: '10' });
  });
});

describe('live list', () => {
  it('puts new conversations on top, moves updated ones and drops rows that leave the filter', async () => {
    const { realtime } = inbox([GRACE, ANON]);
    renderApp('/messages');
    await list();
    // The list's own subscription (the bell subscribes to notifications beside it).
    await waitFor(() =>
      expect(realtime.subscriptions().filter((s) => s.topic === 'conversations')).toHaveLength(1),
    );

    const fresh = conversation({
      id: 9,
      title: 'Brand new',
      initiator: { id: 5, name: 'Linus', email: null },
    });
    act(() =>
      realtime.change('conversations', {
        table: 'conversations',
        event: 'INSERT',
        new: fresh,
        old: null,
        matches: true,
      }),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem')[0],
      ).toHaveTextContent('Linus'),
    );

    act(() =>
      realtime.change('conversations', {
        table: 'conversations',
        event: 'UPDATE',
        new: { ...ANON, last_message_at: new Date().toISOString(), title: 'A new question' },
        old: { last_message_at: ANON.last_message_at },
        matches: true,
      }),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem')[0],
      ).toHaveTextContent('A new question'),
    );

    act(() =>
      realtime.change('conversations', {
        table: 'conversations',
        event: 'UPDATE',
        new: { ...GRACE, status: 'resolved' },
        old: { last_message_at: GRACE.last_message_at },
        matches: false,
      }),
    );
    await waitFor(() => expect(screen.queryByText('Grace Hopper')).toBeNull());
    expect(within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('listitem')).toHaveLength(
      2,
    );
  });
});

describe('conversation pane', () => {
  function openable(conv: TConversation = GRACE) {
    const setup = inbox([conv, ANON]);
    const puts: Array<Record<string, unknown>> = [];
    const posts: Array<Record<string, unknown>> = [];
    const messages = [
      message({ id: 1, content: 'Hello there', created_at: '2026-03-01T10:00:00.000Z' }),
      message({
        id: 2,
        content: 'Hi Grace, looking into it',
        sender_type: 'staff',
        sender: { id: 7, name: 'Ada Lovelace', email: 'ada@example.com', role: 'owner', avatar_url: null },
        created_at: '2026-03-02T10:00:00.000Z',
      }),
    ];
    let current = conv;
    server.use(
      http.get(`/api/msg/conversations/${conv.id}/messages/`, () => ok(messages)),
      http.put(`/api/msg/conversations/${conv.id}/`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        puts.push(body);
        current = { ...current, ...body };
        return ok(current);
      }),
      http.post(`/api/msg/conversations/${conv.id}/messages/`, async ({ request }) => {
        const body = (await request.json()) as Record<string, string>;
        posts.push(body);
        return ok(
          message({
            id: 100 + posts.length,
            content: body.message_type === 'file' ? '/files/signed' : body.content!,
            message_type: body.message_type as 'text' | 'file',
            sender_type: 'staff',
            meta_data:
              body.message_type === 'file'
                ? { file_name: 'notes.txt', mime_type: 'text/plain', size: 5 }
                : {},
            created_at: new Date().toISOString(),
          }),
          201,
        );
      }),
    );
    return { ...setup, puts, posts };
  }

  async function openGrace() {
    const view = renderApp('/messages');
    await userEvent.click(within(await list()).getByText('Grace Hopper'));
    await screen.findByText('Hello there');
    return view;
  }

  it('opens a conversation: header, messages by day, and marks it read', async () => {
    const { puts, realtime } = openable();
    const { router } = await openGrace();

    expect(router.state.location.search).toBe('?conversation=1');
    const header = screen.getByRole('heading', { level: 2, name: 'Grace Hopper' }).closest('header')!;
    expect(within(header).getByRole('img', { name: 'Active' })).toBeInTheDocument();
    expect(within(header).getByText('Customer Success and Rete...')).toBeInTheDocument();
    await waitFor(() => expect(puts).toEqual([{ is_read: true }]));
    // The row follows the server's answer: no unread dot any more.
    await waitFor(() =>
      expect(
        within(screen.getByRole('list', { name: 'Conversations' })).queryByRole('img', { name: 'Unread' }),
      ).toBeNull(),
    );

    const days = within(screen.getByRole('region', { name: 'Conversation' }))
      .getAllByRole('region')
      .filter((r) => r.querySelector('[role="separator"]'));
    expect(days).toHaveLength(2);
    expect(within(days[0]!).getByText('Hello there')).toBeInTheDocument();
    expect(within(days[1]!).getByText('Hi Grace, looking into it')).toBeInTheDocument();
    expect(within(days[1]!).getByRole('img', { name: 'Ada Lovelace' })).toHaveTextContent('AL');

    await waitFor(() =>
      expect(realtime.subscriptions().some((s) => s.topic === 'messages' && s.conversation_id === 1)).toBe(
        true,
      ),
    );
    act(() =>
      realtime.change('messages', {
        table: 'messages',
        event: 'INSERT',
        old: null,
        new: message({ id: 3, content: 'Any news?', created_at: new Date().toISOString() }),
      }),
    );
    expect(await screen.findByText('Any news?')).toBeInTheDocument();
    act(() =>
      realtime.change('messages', {
        table: 'messages',
        event: 'UPDATE',
        old: null,
        new: message({ id: 3, content: 'Any news at all?', created_at: new Date().toISOString() }),
      }),
    );
    expect(await screen.findByText('Any news at all?')).toBeInTheDocument();
    expect(screen.queryByText('Any news?')).toBeNull();
  });

  it('does not mark a read conversation again', async () => {
    const { puts } = openable({ ...GRACE, is_read: true });
    await openGrace();
    await new Promise((r) => setTimeout(r, 50));
    expect(puts).toEqual([]);
  });

  it('marks a conversation resolved and active again from the menu', async () => {
    const { puts } = openable({ ...GRACE, is_read: true });
    await openGrace();

    await userEvent.click(screen.getByRole('button', { name: 'Conversation actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Mark as resolved' }));
    expect(await screen.findByText('Conversation marked resolved')).toBeInTheDocument();
    expect(puts).toEqual([{ status: 'resolved' }]);
    const header = screen.getByRole('heading', { level: 2, name: 'Grace Hopper' }).closest('header')!;
    expect(within(header).getByRole('img', { name: 'Resolved' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Conversation actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Mark as active' }));
    expect(await screen.findByText('Conversation marked active')).toBeInTheDocument();
    expect(puts).toEqual([{ status: 'resolved' }, { status: 'active' }]);
  });

  it('pages back to older messages with before', async () => {
    inbox([{ ...GRACE, is_read: true }]);
    const firstPage = Array.from({ length: 50 }, (_, i) =>
      message({ id: 51 + i, content: `Message ${51 + i}`, created_at: '2026-03-02T10:00:00.000Z' }),
    );
    const befores: Array<string | null> = [];
    server.use(
      http.get('/api/msg/conversations/1/messages/', ({ request }) => {
        const before = new URL(request.url).searchParams.get('before');
        befores.push(before);
        return ok(before === '51' ? [message({ id: 50, content: 'The very first' })] : firstPage);
      }),
    );
    renderApp('/messages?conversation=1');
    await screen.findByText('Message 100');
    await userEvent.click(screen.getByRole('button', { name: 'Load older messages' }));
    expect(await screen.findByText('The very first')).toBeInTheDocument();
    expect(befores).toContain('51');
    expect(screen.queryByRole('button', { name: 'Load older messages' })).toBeNull();
  });
});

describe('composer', () => {
  function ready(conv: TConversation = { ...GRACE, is_read: true }) {
    inbox([conv]);
    const posts: Array<Record<string, unknown>> = [];
    server.use(
      http.get(`/api/msg/conversations/${conv.id}/messages/`, () =>
        ok([message({ content: 'Hello there' })]),
      ),
      http.post(`/api/msg/conversations/${conv.id}/messages/`, async ({ request }) => {
        const body = (await request.json()) as Record<string, string>;
        posts.push(body);
        return ok(
          message({
            id: 100 + posts.length,
            content: body.message_type === 'file' ? '/files/signed/notes.txt' : body.content!,
            message_type: body.message_type as 'text' | 'file',
            sender_type: 'staff',
            meta_data:
              body.message_type === 'file'
                ? { key: body.content, file_name: 'notes.txt', mime_type: 'text/plain', size: 5 }
                : {},
            created_at: new Date().toISOString(),
          }),
          201,
        );
      }),
    );
    renderApp(`/messages?conversation=${conv.id}`);
    return { posts };
  }

  it('sends on Enter, breaks lines on Shift+Enter and sends nothing blank', async () => {
    const { posts } = ready();
    const box = await screen.findByPlaceholderText('Type a message...');

    await userEvent.type(box, '   {Enter}');
    await userEvent.clear(box);
    await userEvent.type(box, '{Enter}');
    expect(posts).toEqual([]);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    await userEvent.type(box, 'First line{Shift>}{Enter}{/Shift}second line');
    expect(box).toHaveValue('First line\nsecond line');
    expect(posts).toEqual([]);

    await userEvent.type(box, '{Enter}');
    await waitFor(() =>
      expect(posts).toEqual([{ message_type: 'text', content: 'First line\nsecond line' }]),
    );
    await waitFor(() => expect(box).toHaveValue(''));
    expect(await screen.findByText(/First line\s+second line/)).toBeInTheDocument();
  });

  it('caps the text box at 150 px', async () => {
    ready();
    const box = await screen.findByPlaceholderText('Type a message...');
    Object.defineProperty(box, 'scrollHeight', { configurable: true, get: () => 400 });
    await userEvent.type(box, 'x');
    expect(box.style.height).toBe('150px');
    expect(box.style.overflowY).toBe('auto');
  });

  it('toasts when a message cannot be sent, keeping the text', async () => {
    ready();
    server.use(http.post('/api/msg/conversations/1/messages/', () => fail(500, 'boom')));
    const box = await screen.findByPlaceholderText('Type a message...');
    await userEvent.type(box, 'Hello?{Enter}');
    expect(await screen.findByText('Failed to send message. Please try again.')).toBeInTheDocument();
    expect(box).toHaveValue('Hello?');
  });

  it('refuses files over 10 MB with the spec text, before any upload', async () => {
    ready();
    let uploads = 0;
    server.use(
      http.post('/api/upload/', () => {
        uploads += 1;
        return fail(413, FILE_TOO_LARGE_MESSAGE);
      }),
    );
    await screen.findByText('Hello there');
    const big = new File(['x'], 'huge.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: OWN_CHANNEL_FILE_LIMIT_BYTES + 1 });
    await userEvent.upload(screen.getByTestId('attachment-input'), big);
    expect(await screen.findByText('File size too large. Maximum size is 10MB.')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog', { name: 'Send Attachment' })).toBeNull();
    expect(uploads).toBe(0);
  });

  it('sends a file after the "Send Attachment" confirmation: upload, then a file message', async () => {
    const { posts } = ready();
    const uploads: Array<Record<string, string>> = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/upload/', async ({ request }) => {
        const form = await request.formData();
        const file = form.get('file') as File;
        // (jsdom's File loses its name on the way into Node's fetch; the browser suite checks names.)
        uploads.push({
          prefix: String(form.get('prefix')),
          conversation_id: String(form.get('conversation_id')),
          text: await file.text(),
        });
        await held;
        return ok(
          {
            presigned_url: '/files/signed/notes.txt',
            key: 'public/public_chat_media/1/1/u/notes.txt',
            size: 5,
            mime_type: 'text/plain',
            file_name: 'notes.txt',
          },
          201,
        );
      }),
    );
    await screen.findByText('Hello there');
    await userEvent.upload(
      screen.getByTestId('attachment-input'),
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
    );

    const dialog = await screen.findByRole('alertdialog', { name: 'Send Attachment' });
    expect(within(dialog).getByText('Are you sure you want to send the file?')).toBeInTheDocument();
    expect(within(dialog).getByText('notes.txt')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('button', { name: 'Sending...' })).toBeDisabled();
    release();

    expect(await screen.findByText('File uploaded successfully')).toBeInTheDocument();
    await waitFor(() =>
      expect(posts).toEqual([{ message_type: 'file', content: 'public/public_chat_media/1/1/u/notes.txt' }]),
    );
    expect(uploads).toEqual([{ prefix: 'public/public_chat_media', conversation_id: '1', text: 'hello' }]);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(await screen.findByRole('link', { name: 'Attachment Added' })).toHaveAttribute(
      'href',
      '/files/signed/notes.txt',
    );
  });

  it('sends nothing when the attachment is cancelled', async () => {
    const { posts } = ready();
    let uploads = 0;
    server.use(
      http.post('/api/upload/', () => {
        uploads += 1;
        return fail(500, 'no');
      }),
    );
    await screen.findByText('Hello there');
    await userEvent.upload(screen.getByTestId('attachment-input'), new File(['hello'], 'notes.txt'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send Attachment' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(uploads).toBe(0);
    expect(posts).toEqual([]);
  });

  it('toasts a failed upload and posts nothing', async () => {
    const { posts } = ready();
    server.use(http.post('/api/upload/', () => fail(500, 'Storage is down')));
    await screen.findByText('Hello there');
    await userEvent.upload(screen.getByTestId('attachment-input'), new File(['hello'], 'notes.txt'));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send Attachment' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Failed to upload file. Please try again.')).toBeInTheDocument();
    expect(screen.queryByText('File uploaded successfully')).toBeNull();
    expect(posts).toEqual([]);
  });
});
