import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';

import { fail, ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

function serverSaysOutboxIsOn() {
  const meta = document.createElement('meta');
  meta.name = 'titan-dev-outbox';
  meta.content = 'on';
  document.head.append(meta);
}
afterEach(() => document.head.querySelector('meta[name="titan-dev-outbox"]')?.remove());

const mail = {
  to: 'ada@example.com',
  subject: 'Confirm your email address',
  text: 'Hi Ada,\n\nConfirm email: http://localhost:3000/auth/account-confirm-email/abc\n\n— Titan',
  html: '<p><img src=x onerror="alert(1)">Hi</p>',
  links: ['http://localhost:3000/auth/account-confirm-email/abc'],
  sent_at: '2026-01-02T03:04:05.000Z',
};

describe('the development outbox page', () => {
  it("asks for an address and shows that address's mail: subject, links and text", async () => {
    serverSaysOutboxIsOn();
    const asked: (string | null)[] = [];
    server.use(
      http.get('/api/dev/outbox/', ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('to'));
        return ok([mail]);
      }),
    );
    const { router } = renderApp('/dev/outbox');
    expect(await screen.findByRole('heading', { name: 'Development outbox' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email address'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Show mail' }));

    const card = (await screen.findByText('Confirm your email address')).closest('div[data-slot="card"]');
    const scope = within((card as HTMLElement | null) ?? document.body);
    expect(scope.getByRole('link', { name: mail.links[0] })).toHaveAttribute('href', mail.links[0]);
    expect(scope.getByText(/Confirm email: http/)).toBeInTheDocument();
    expect(asked).toEqual(['ada@example.com']);
    expect(router.state.location.search).toBe('?to=ada%40example.com');
    // The HTML part is never rendered.
    expect(document.querySelector('img')).toBeNull();
  });

  it('shows what the server says when it refuses', async () => {
    serverSaysOutboxIsOn();
    server.use(
      http.get('/api/dev/outbox/', () =>
        fail(403, 'The development outbox answers only requests made on the machine running Titan.'),
      ),
    );
    renderApp('/dev/outbox?to=ada%40example.com');
    expect(
      await screen.findByText(
        'The development outbox answers only requests made on the machine running Titan.',
      ),
    ).toBeInTheDocument();
  });

  it('says there is no outbox when the server sends mail', async () => {
    renderApp('/dev/outbox?to=ada%40example.com');
    expect(await screen.findByText(/there is no development outbox to read/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show mail' })).not.toBeInTheDocument();
  });
});
