// Settings → Webhooks: add an endpoint with event-type checkboxes (the server's field error on the
// URL), the secret shown once with copy, the deliveries log with replay, the test send.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TWebhookDelivery, TWebhookEndpoint } from '@titan/contracts';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { WEBHOOKS_STRINGS as S } from '../strings';

type Body = Record<string, unknown>;

const endpoint = (over: Partial<TWebhookEndpoint> = {}): TWebhookEndpoint => ({
  id: 5,
  url: 'https://crm.example.com/hook',
  event_types: ['customer.created'],
  description: 'CRM',
  enabled: true,
  disabled_reason: null,
  failing_since: null,
  created_at: '2026-11-24T10:00:00Z',
  updated_at: '2026-11-24T10:00:00Z',
  ...over,
});

const delivery: TWebhookDelivery = {
  id: 77,
  endpoint_id: 5,
  event_id: 'msg_abc',
  event_type: 'customer.created',
  status: 'failed',
  attempts: 9,
  next_attempt_at: null,
  last_attempt_at: '2026-11-24T10:00:00Z',
  delivered_at: null,
  request_body: '{"type":"customer.created"}',
  response_status: 500,
  response_body: 'boom',
  error: 'The endpoint answered 500.',
  duration_ms: 12,
  created_at: '2026-11-24T10:00:00Z',
};

function setUp() {
  signIn();
  const state = {
    endpoints: [] as TWebhookEndpoint[],
    posts: [] as Body[],
    replays: [] as number[],
    deletes: [] as number[],
    tests: 0,
  };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
    http.get('/api/webhooks/endpoints/', () => ok(state.endpoints)),
    http.post('/api/webhooks/endpoints/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.posts.push(body);
      if (String(body.url).startsWith('http://'))
        return fail(400, 'Invalid input.', { url: ['Use an https:// URL.'] });
      const created = endpoint({ url: String(body.url), event_types: body.event_types as string[] });
      state.endpoints = [created];
      return ok({ ...created, secret: 'whsec_c2VjcmV0c2VjcmV0' }, 201);
    }),
    http.delete('/api/webhooks/endpoints/:id/', ({ params }) => {
      state.deletes.push(Number(params.id));
      state.endpoints = state.endpoints.filter((e) => e.id !== Number(params.id));
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/webhooks/endpoints/:id/deliveries/', () =>
      ok({ count: 1, next: null, previous: null, results: [delivery] }),
    ),
    http.post('/api/webhooks/endpoints/deliveries/:id/replay/', ({ params }) => {
      state.replays.push(Number(params.id));
      return ok({ ...delivery, status: 'pending' });
    }),
    http.post('/api/webhooks/endpoints/:id/test/', () => {
      state.tests += 1;
      return ok({
        ...delivery,
        id: 78,
        event_type: 'webhook.test',
        status: 'delivered',
        response_status: 200,
        error: null,
      });
    }),
  );
  return state;
}

describe('Settings → Webhooks', () => {
  it('adds an endpoint with chosen events, shows the secret once, then the log with replay and a test send', async () => {
    const state = setUp();
    const user = userEvent.setup();
    renderApp('/engage/settings/webhooks');
    const tabs = await screen.findByRole('navigation', { name: 'Settings' });
    expect(within(tabs).getByRole('link', { name: 'Webhooks' })).toHaveAttribute('aria-current', 'page');
    expect(await screen.findByText(S.empty)).toBeInTheDocument();

    const form = screen.getByRole('form', { name: S.addTitle });
    await user.click(within(form).getByRole('button', { name: S.add }));
    expect(await within(form).findByText(S.eventTypesRequired)).toBeInTheDocument();

    await user.type(within(form).getByLabelText(S.url), 'http://crm.example.com/hook');
    await user.click(within(form).getByRole('checkbox', { name: /customer\.created/ }));
    await user.click(within(form).getByRole('checkbox', { name: /conversation\.resolved/ }));
    await user.click(within(form).getByRole('button', { name: S.add }));
    expect(await within(form).findByText('Use an https:// URL.')).toBeInTheDocument();

    await user.clear(within(form).getByLabelText(S.url));
    await user.type(within(form).getByLabelText(S.url), 'https://crm.example.com/hook');
    await user.click(within(form).getByRole('button', { name: S.add }));
    expect(await screen.findByLabelText(S.secretTitle)).toHaveTextContent('whsec_c2VjcmV0c2VjcmV0');
    expect(state.posts.at(-1)).toMatchObject({ event_types: ['conversation.resolved', 'customer.created'] });
    await user.click(screen.getByRole('button', { name: S.done }));
    expect(screen.queryByLabelText(S.secretTitle)).not.toBeInTheDocument();

    const card = await screen.findByRole('listitem', { name: 'https://crm.example.com/hook' });
    await user.click(within(card).getByRole('button', { name: S.deliveries }));
    expect(await within(card).findByText('The endpoint answered 500.')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: S.replay }));
    await expect.poll(() => state.replays).toEqual([77]);
    await user.click(within(card).getByRole('button', { name: S.test }));
    await expect.poll(() => state.tests).toBe(1);
  }, 90_000);

  it('removes an endpoint only after confirming, saying its delivery log goes too', async () => {
    const state = setUp();
    state.endpoints = [endpoint()];
    const user = userEvent.setup();
    renderApp('/engage/settings/webhooks');

    const card = await screen.findByRole('listitem', { name: 'https://crm.example.com/hook' });
    await user.click(within(card).getByRole('button', { name: 'Remove https://crm.example.com/hook' }));
    let dialog = await screen.findByRole('alertdialog', {
      name: 'Remove the endpoint https://crm.example.com/hook?',
    });
    expect(dialog).toHaveTextContent('Titan stops sending events to it; its delivery log is deleted.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(state.deletes).toEqual([]);

    await user.click(within(card).getByRole('button', { name: 'Remove https://crm.example.com/hook' }));
    dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Endpoint removed')).toBeInTheDocument();
    expect(state.deletes).toEqual([5]);
    expect(await screen.findByText(S.empty)).toBeInTheDocument();
  });
});
