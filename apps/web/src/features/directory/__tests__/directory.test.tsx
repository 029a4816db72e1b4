import type { TDirectoryVisitor, TSmsInbound } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

function visitor(overrides: Partial<TDirectoryVisitor> = {}): TDirectoryVisitor {
  return {
    id: 1,
    name: 'Grace Hopper',
    email: 'grace@example.com',
    phone: '+1 555 0100',
    external_id: null,
    fields: {},
    conversation_count: 2,
    created_at: '2026-03-01T09:00:00.000Z',
    updated_at: '2026-03-01T09:00:00.000Z',
    last_seen_at: '2026-03-02T10:00:00.000Z',
    email_status: 'unknown',
    sms_status: 'unknown',
    whatsapp_status: 'unknown',
    labels: [],
    ...overrides,
  };
}

const GRACE = visitor({
  id: 5,
  external_id: 'user-77',
  fields: { company: 'Navy', newsletter: true, seats: 12 },
});
const ANON = visitor({
  id: 6,
  name: null,
  email: null,
  phone: null,
  conversation_count: 0,
  last_seen_at: null,
});

/** 45 visitors, answered page by page and filtered by search like the server does. */
const CROWD = Array.from({ length: 45 }, (_, i) =>
  visitor({ id: 100 + i, name: `Visitor ${String(i + 1).padStart(2, '0')}`, email: `v${i + 1}@example.com` }),
);

type TCall = Record<string, string>;

const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] };

function directory(people: TDirectoryVisitor[], role: 'owner' | 'agent' = 'owner') {
  signIn();
  const calls: TCall[] = [];
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/business/customer-directory/', ({ request }) => {
      const params = Object.fromEntries(new URL(request.url).searchParams);
      calls.push(params);
      const search = (params.search ?? '').toLowerCase();
      const found = people.filter(
        (p) => !search || [p.name, p.email, p.phone].some((value) => value?.toLowerCase().includes(search)),
      );
      const size = Number(params.page_size);
      const page = Number(params.page);
      return ok({
        count: found.length,
        count_capped: false,
        next: page * size < found.length ? page + 1 : null,
        previous: page > 1 ? page - 1 : null,
        results: found.slice((page - 1) * size, page * size),
      });
    }),
    http.get('/api/business/customer-directory/:id/', ({ params }) => {
      const found = people.find((p) => p.id === Number(params.id));
      return found ? ok(found) : fail(404, 'Not found.');
    }),
    http.get('/api/business/customer-directory/:id/conversations/', () => ok(EMPTY_PAGE)),
    http.get('/api/business/customer-directory/:id/sends/', () => ok(EMPTY_PAGE)),
    http.get('/api/sms/inbound/', ({ request }) => {
      const id = Number(new URL(request.url).searchParams.get('customer_id'));
      const results = TEXTS.filter((t) => t.customer_id === id);
      return ok({ count: results.length, next: null, previous: null, results });
    }),
  );
  return calls;
}

/** Texts Grace sent the business's SMS number, newest first, as the server answers them. */
const TEXTS: TSmsInbound[] = [
  {
    id: 2,
    customer_id: 5,
    from: '+14155550123',
    to: '+15550100200',
    body: 'STOP',
    keyword: 'stop',
    received_at: '2026-03-02T10:05:00.000Z',
  },
  {
    id: 1,
    customer_id: 5,
    from: '+14155550123',
    to: '+15550100200',
    body: 'Is the shop open on Sunday?',
    keyword: null,
    received_at: '2026-03-02T10:00:00.000Z',
  },
];

describe('visitor directory', () => {
  it('lists visitors with their details, and "Anonymous Customer" for a visitor without a name', async () => {
    directory([GRACE, ANON]);
    renderApp('/engage/directory');

    const table = await screen.findByRole('table', { name: 'Visitors' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent);
    expect(headers).toEqual(['Name', 'Email', 'Phone', 'Consent', 'Conversations', 'Last seen', 'Created']);
    const [, graceRow, anonRow] = within(table).getAllByRole('row');
    expect(within(graceRow!).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/engage/directory/visitor/5',
    );
    expect(graceRow).toHaveTextContent('grace@example.com');
    expect(graceRow).toHaveTextContent('+1 555 0100');
    expect(within(anonRow!).getByRole('link', { name: 'Anonymous Customer' })).toBeInTheDocument();
    expect(anonRow).toHaveTextContent('Never');
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();
  });

  it('searches once the typing pauses, not on every key', async () => {
    const calls = directory([GRACE, ANON, ...CROWD]);
    const { router } = renderApp('/engage/directory');
    await screen.findByRole('table', { name: 'Visitors' });

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search visitors' }), 'grace');

    const table = await screen.findByRole('table', { name: 'Visitors' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByText('Grace Hopper')).toBeInTheDocument();
    expect(calls.map((c) => c.search ?? '')).toEqual(['', 'grace']);
    expect(calls[1]).toEqual({ search: 'grace', page: '1', page_size: '20' });
    expect(router.state.location.search).toBe('?search=grace');
  });

  it('pages through the visitors, and a new search starts again on the first page', async () => {
    const calls = directory(CROWD);
    renderApp('/engage/directory');

    expect(await screen.findByText('1–20 of 45')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('21–40 of 45')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Visitor 21' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('41–45 of 45')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search visitors' }), 'Visitor 1');
    expect(await screen.findByText('1–10 of 10')).toBeInTheDocument();
    expect(calls.map((c) => c.page)).toEqual(['1', '2', '3', '1']);
  });

  it('says so when there are no visitors, or nobody matches the search', async () => {
    directory([]);
    renderApp('/engage/directory');
    expect(await screen.findByText('No visitors yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search visitors' }), 'zed');
    expect(await screen.findByText('No visitors found')).toBeInTheDocument();
    expect(screen.getByText('Nobody matches “zed”.')).toBeInTheDocument();
    const clear = screen.getAllByRole('button', { name: 'Clear search' }).at(-1)!;
    await userEvent.click(clear);
    expect(await screen.findByText('No visitors yet')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search visitors' })).toHaveValue('');
  });

  it('opens a visitor from their row and shows every field, the custom ones included', async () => {
    directory([GRACE, ANON]);
    const { router } = renderApp('/engage/directory');
    const table = await screen.findByRole('table', { name: 'Visitors' });
    // Any cell of the row opens the visitor, not only the name.
    await userEvent.click(within(table).getByText('grace@example.com'));

    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage/directory/visitor/5');
    const details = screen.getByLabelText('Details');
    expect(details).toHaveTextContent('User id on your site');
    expect(details).toHaveTextContent('user-77');
    const answers = screen.getByLabelText('Visitor form answers');
    expect(answers).toHaveTextContent('company');
    expect(answers).toHaveTextContent('Navy');
    expect(answers).toHaveTextContent('newsletter');
    expect(answers).toHaveTextContent('Yes');
    expect(answers).toHaveTextContent('12');
    expect(screen.getByText('2 conversations with this visitor.')).toBeInTheDocument();
    // What they texted the business's SMS number, newest first, a STOP marked.
    const texts = within(await screen.findByRole('list', { name: 'Text messages' })).getAllByRole('listitem');
    expect(texts.map((t) => t.textContent)).toEqual([
      expect.stringContaining('Unsubscribed (STOP)STOP'),
      expect.stringContaining('Is the shop open on Sunday?'),
    ]);
  });

  it('says when a visitor does not exist', async () => {
    directory([GRACE]);
    renderApp('/engage/directory/visitor/999');
    expect(await screen.findByText('Visitor not found')).toBeInTheDocument();
  });
});

describe('editing and deleting a visitor', () => {
  it('saves name, email and phone, and clearing a field sends null', async () => {
    directory([GRACE]);
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/business/customer-directory/5/', async ({ request }) => {
        const body = (await request.json()) as Partial<TDirectoryVisitor>;
        bodies.push(body);
        return ok({ ...GRACE, ...body, updated_at: '2026-04-01T00:00:00.000Z' });
      }),
    );
    renderApp('/engage/directory/visitor/5');

    const form = await screen.findByRole('form', { name: 'Edit visitor' });
    const name = within(form).getByLabelText('Name (optional)');
    await userEvent.clear(name);
    await userEvent.type(name, 'Grace B. Hopper');
    await userEvent.clear(within(form).getByLabelText('Phone (optional)'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText('Visitor updated')).toBeInTheDocument();
    expect(bodies).toEqual([{ name: 'Grace B. Hopper', email: 'grace@example.com', phone: null }]);
    expect(await screen.findByRole('heading', { name: 'Grace B. Hopper', level: 1 })).toBeInTheDocument();
  });

  it('puts the server’s field errors on the fields and focuses the first', async () => {
    directory([GRACE]);
    server.use(
      http.put('/api/business/customer-directory/5/', () =>
        fail(400, 'Invalid input.', {
          email: ['Another visitor already uses this email.'],
          phone: ['Enter a phone number with its country code.', 'Second message'],
        }),
      ),
    );
    renderApp('/engage/directory/visitor/5');

    const form = await screen.findByRole('form', { name: 'Edit visitor' });
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    const email = within(form).getByLabelText('Email (optional)');
    expect(await within(form).findByText('Another visitor already uses this email.')).toBeInTheDocument();
    expect(within(form).getByText('Enter a phone number with its country code.')).toBeInTheDocument();
    expect(within(form).queryByText('Second message')).not.toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
  });

  it('checks the email before sending, with the contract’s message', async () => {
    directory([GRACE]);
    let puts = 0;
    server.use(
      http.put('/api/business/customer-directory/5/', () => {
        puts += 1;
        return ok(GRACE);
      }),
    );
    renderApp('/engage/directory/visitor/5');
    const form = await screen.findByRole('form', { name: 'Edit visitor' });
    const email = within(form).getByLabelText('Email (optional)');
    await userEvent.clear(email);
    await userEvent.type(email, 'not-an-email');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await within(form).findByText('Enter a valid email address.')).toBeInTheDocument();
    expect(puts).toBe(0);
  });

  it('deletes a visitor only after confirming, then returns to the directory', async () => {
    const people = [GRACE, ANON];
    directory(people);
    const deleted: string[] = [];
    server.use(
      http.delete('/api/business/customer-directory/5/', ({ request }) => {
        deleted.push(new URL(request.url).pathname);
        people.splice(0, 1);
        return ok(null);
      }),
    );
    const { router } = renderApp('/engage/directory/visitor/5');

    await userEvent.click(await screen.findByRole('button', { name: 'Delete visitor' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Grace Hopper?' });
    expect(dialog).toHaveTextContent('Their conversations stay in the inbox');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Delete visitor' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );

    expect(await screen.findByText('Grace Hopper was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/directory'));
    const table = await screen.findByRole('table', { name: 'Visitors' });
    await waitFor(() => expect(within(table).queryByText('Grace Hopper')).not.toBeInTheDocument());
    expect(deleted).toEqual(['/api/business/customer-directory/5/']);
  });

  it('erases a visitor only after a confirmation naming who and what is erased', async () => {
    const people = [GRACE, ANON];
    directory(people);
    const erased: string[] = [];
    server.use(
      http.post('/api/business/customer-directory/5/erase/', ({ request }) => {
        erased.push(new URL(request.url).pathname);
        people.splice(0, 1);
        return HttpResponse.json({ status: 202, message: 'Accepted', result: null }, { status: 202 });
      }),
    );
    const { router } = renderApp('/engage/directory/visitor/5');

    await userEvent.click(await screen.findByRole('button', { name: 'Erase all data' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Erase everything held on Grace Hopper?' });
    expect(dialog).toHaveTextContent(`This erases Grace Hopper, ${GRACE.email}`);
    expect(dialog).toHaveTextContent('conversations and messages with their files');
    expect(dialog).toHaveTextContent('stay on the suppression list (only as a hash)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(erased).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Erase all data' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Erase for good' }),
    );
    expect(await screen.findByText('Everything held on Grace Hopper was erased.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/directory'));
    expect(erased).toEqual(['/api/business/customer-directory/5/erase/']);
  });

  it('shows a refused delete as a toast and stays on the visitor', async () => {
    directory([GRACE]);
    server.use(
      http.delete('/api/business/customer-directory/5/', () =>
        fail(403, 'You do not have permission to perform this action.'),
      ),
    );
    const { router } = renderApp('/engage/directory/visitor/5');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete visitor' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByText('You do not have permission to perform this action.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/engage/directory/visitor/5');
  });

  it('hides editing and deleting from a role without engage.write', async () => {
    directory([GRACE], 'agent');
    renderApp('/engage/directory/visitor/5');

    expect(await screen.findByRole('heading', { name: 'Grace Hopper', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('Your role can see visitors but not change them.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete visitor' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit visitor' })).not.toBeInTheDocument();
  });
});

describe('consent, export and a visitor’s activity', () => {
  const CONSENTING = visitor({
    id: 5,
    email_status: 'subscribed',
    sms_status: 'unsubscribed',
    whatsapp_status: 'unknown',
  });

  it('shows each visitor’s consent per channel as badges in the list', async () => {
    directory([CONSENTING, ANON]);
    renderApp('/engage/directory');
    const table = await screen.findByRole('table', { name: 'Visitors' });
    const [, row] = within(table).getAllByRole('row');
    const badges = within(row!).getByRole('list', { name: 'Consent per channel' });
    expect(
      within(badges)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Email: Subscribed', 'SMS: Unsubscribed', 'WhatsApp: Unknown']);
  });

  it('edits consent on the visitor’s page, sending only the channels changed', async () => {
    directory([CONSENTING]);
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/business/customer-directory/5/', async ({ request }) => {
        const body = (await request.json()) as Partial<TDirectoryVisitor>;
        bodies.push(body);
        return ok({ ...CONSENTING, ...body, updated_at: '2026-04-01T00:00:00.000Z' });
      }),
    );
    renderApp('/engage/directory/visitor/5');

    const form = await screen.findByRole('form', { name: 'Edit consent' });
    expect(within(form).getByLabelText('Email')).toHaveValue('subscribed');
    await userEvent.click(within(form).getByRole('button', { name: 'Save consent' }));
    expect(await within(form).findByText('Nothing changed.')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await userEvent.selectOptions(within(form).getByLabelText('SMS'), 'Subscribed');
    await userEvent.selectOptions(within(form).getByLabelText('WhatsApp'), 'Complained');
    await userEvent.click(within(form).getByRole('button', { name: 'Save consent' }));

    expect(await screen.findByText('Consent updated')).toBeInTheDocument();
    expect(bodies).toEqual([{ sms_status: 'subscribed', whatsapp_status: 'complained' }]);
    const badges = screen.getAllByRole('list', { name: 'Consent per channel' }).at(-1)!;
    await waitFor(() =>
      expect(
        within(badges)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Email: Subscribed', 'SMS: Subscribed', 'WhatsApp: Complained']),
    );
  });

  it('shows a pending confirmation but never offers it to choose', async () => {
    const PENDING = visitor({ id: 6, email_status: 'pending', sms_status: 'unknown' });
    directory([PENDING]);
    renderApp('/engage/directory/visitor/6');
    const form = await screen.findByRole('form', { name: 'Edit consent' });
    const email = within(form).getByLabelText('Email');
    expect(email).toHaveValue('pending');
    expect(within(email).getByRole('option', { name: 'Pending confirmation' })).toBeDisabled();
    const sms = within(form).getByLabelText('SMS');
    expect(within(sms).queryByRole('option', { name: 'Pending confirmation' })).not.toBeInTheDocument();
    expect(
      within(sms)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Subscribed', 'Unsubscribed', 'Bounced', 'Complained', 'Unknown']);
  });

  it('shows consent read-only to an agent', async () => {
    directory([CONSENTING], 'agent');
    renderApp('/engage/directory/visitor/5');
    expect(await screen.findByText('Email: Subscribed')).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Edit consent' })).not.toBeInTheDocument();
  });

  it('exports the search shown as CSV with the session; agents get no button', async () => {
    directory([GRACE, ANON]);
    const downloads: { auth: string | null; query: string }[] = [];
    server.use(
      http.get('/api/business/customer-directory/download/', ({ request }) => {
        downloads.push({ auth: request.headers.get('authorization'), query: new URL(request.url).search });
        return new HttpResponse('id,name\r\n5,Grace Hopper\r\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="visitors-2026-04-01.csv"',
          },
        });
      }),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:visitors');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const saved: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.href, download: this.download });
    });

    renderApp('/engage/directory?search=grace');
    await screen.findByRole('table', { name: 'Visitors' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));

    expect(await screen.findByText('Downloaded visitors-2026-04-01.csv')).toBeInTheDocument();
    expect(saved).toEqual([{ href: 'blob:visitors', download: 'visitors-2026-04-01.csv' }]);
    expect(downloads).toEqual([{ auth: expect.stringMatching(/^Bearer /), query: '?search=grace' }]);
    expect(await createObjectURL.mock.calls[0]![0].text()).toContain('5,Grace Hopper');
    vi.restoreAllMocks();
  });

  it('hides the export from agents', async () => {
    directory([GRACE], 'agent');
    renderApp('/engage/directory');
    await screen.findByRole('table', { name: 'Visitors' });
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
  });

  it('shows a capped count as "1,000+" and still pages on', async () => {
    directory([]);
    server.use(
      http.get('/api/business/customer-directory/', () =>
        ok({ count: 1000, count_capped: true, next: 2, previous: null, results: CROWD.slice(0, 20) }),
      ),
    );
    renderApp('/engage/directory?search=visitor');
    expect(await screen.findByText('1–20 of 1,000+')).toBeInTheDocument();
    expect(screen.getByText('Page 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeEnabled();
  });

  it('lists the visitor’s conversations and the messages sent them', async () => {
    directory([GRACE]);
    server.use(
      http.get('/api/business/customer-directory/5/conversations/', () =>
        ok({
          count: 1,
          next: null,
          previous: null,
          results: [
            {
              id: 41,
              title: 'Order question',
              status: 'active',
              channel: 'titan_message',
              is_read: false,
              last_message_at: '2026-03-03T10:00:00.000Z',
              created_at: '2026-03-03T09:00:00.000Z',
            },
          ],
        }),
      ),
      http.get('/api/business/customer-directory/5/sends/', () =>
        ok({
          count: 2,
          next: null,
          previous: null,
          results: [
            {
              tracking_id: 'a0000000-0000-4000-8000-000000000001',
              channel: 'email',
              status: 'opened',
              to: 'grace@example.com',
              subject: 'Spring is here',
              template_name: 'spring',
              error_message: null,
              conversation_id: null,
              created_at: '2026-03-04T09:00:00.000Z',
              updated_at: '2026-03-04T09:05:00.000Z',
            },
            {
              tracking_id: 'a0000000-0000-4000-8000-000000000002',
              channel: 'sms',
              status: 'delivered',
              to: '+15550100',
              subject: null,
              template_name: null,
              error_message: null,
              conversation_id: null,
              created_at: '2026-03-03T09:00:00.000Z',
              updated_at: '2026-03-03T09:00:00.000Z',
            },
          ],
        }),
      ),
    );
    renderApp('/engage/directory/visitor/5');

    const conversations = await screen.findByRole('list', { name: 'Conversations with this visitor' });
    expect(within(conversations).getByRole('link', { name: 'Order question' })).toHaveAttribute(
      'href',
      '/messages?conversation=41',
    );
    expect(conversations).toHaveTextContent('Chat');
    expect(conversations).toHaveTextContent('Unread');

    const sends = await screen.findByRole('table', { name: 'Messages sent to this visitor' });
    const [, email, sms] = within(sends).getAllByRole('row');
    expect(within(email!).getByRole('link', { name: 'Spring is here' })).toHaveAttribute(
      'href',
      '/engage/event-logs/emails/a0000000-0000-4000-8000-000000000001',
    );
    expect(email).toHaveTextContent('opened');
    expect(sms).toHaveTextContent('SMS');
    expect(sms).toHaveTextContent('delivered');
  });

  it('says when nothing was sent and no conversation started', async () => {
    directory([ANON]);
    renderApp('/engage/directory/visitor/6');
    expect(await screen.findByText('Nothing has been sent to this visitor yet.')).toBeInTheDocument();
    expect(screen.getByText('This visitor has not started a conversation.')).toBeInTheDocument();
  });
});
