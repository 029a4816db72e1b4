// The public unsubscribe page: it says which business and address, unsubscribes with one button,
// confirms, undoes (subscribes again), and says when the link is not valid. No session is needed.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail, ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { UNSUBSCRIBE_STRINGS as S } from '../strings';

const TOKEN = 'tok_abc.123';

/** The unsubscribe API for one address, keeping its state and every change asked. */
function withApi(initial = false) {
  let unsubscribed = initial;
  const calls: string[] = [];
  server.use(
    http.get('/api/email/unsubscribe/', ({ request }) => {
      const token = new URL(request.url).searchParams.get('token');
      calls.push(`GET ${token}`);
      if (token !== TOKEN) return fail(400, 'This unsubscribe link is not valid.');
      return ok({ email: 'ada@example.com', business_name: 'Acme Shoes', unsubscribed });
    }),
    http.post('/api/email/unsubscribe/', async ({ request }) => {
      const body = (await request.json()) as { token?: string };
      calls.push(`POST unsubscribe ${body.token} ${new URL(request.url).searchParams.get('token')}`);
      unsubscribed = true;
      return ok({ email: 'ada@example.com', business_name: 'Acme Shoes', unsubscribed });
    }),
    http.post('/api/email/resubscribe/', async ({ request }) => {
      const body = (await request.json()) as { token?: string };
      calls.push(`POST resubscribe ${body.token}`);
      unsubscribed = false;
      return ok({ email: 'ada@example.com', business_name: 'Acme Shoes', unsubscribed });
    }),
  );
  return calls;
}

describe('/engage/unsubscribe', () => {
  it('explains, unsubscribes with one button, confirms and undoes', { timeout: 20_000 }, async () => {
    const calls = withApi();
    renderApp(`/engage/unsubscribe?token=${encodeURIComponent(TOKEN)}`);

    expect(await screen.findByRole('heading', { name: 'Unsubscribe from Acme Shoes' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'If you unsubscribe, ada@example.com will stop receiving emails from Acme Shoes. Emails from other businesses are not affected.',
      ),
    ).toBeInTheDocument();
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toContain('Unsubscribe');
    // The customer sees the business's name, not Titan's.
    expect(screen.getByText('Acme Shoes', { selector: 'p' })).toBeInTheDocument();
    expect(screen.queryByText(/Titan/)).not.toBeInTheDocument();
    expect(document.title).toBe('Unsubscribe from Acme Shoes');

    await userEvent.click(screen.getByRole('button', { name: 'Unsubscribe' }));
    expect(await screen.findByRole('heading', { name: S.doneTitle })).toBeInTheDocument();
    expect(
      screen.getByText('ada@example.com will no longer receive emails from Acme Shoes.'),
    ).toBeInTheDocument();
    expect(calls).toContain(`POST unsubscribe ${TOKEN} ${TOKEN}`);

    await userEvent.click(screen.getByRole('button', { name: 'Subscribe again' }));
    expect(await screen.findByRole('heading', { name: S.resubscribedTitle })).toBeInTheDocument();
    expect(
      screen.getByText('ada@example.com will receive emails from Acme Shoes again.'),
    ).toBeInTheDocument();
    expect(calls).toContain(`POST resubscribe ${TOKEN}`);
  });

  it('offers to subscribe again when already unsubscribed', async () => {
    withApi(true);
    renderApp(`/engage/unsubscribe?token=${encodeURIComponent(TOKEN)}`);
    expect(await screen.findByRole('heading', { name: S.doneTitle })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Subscribe again' })).toBeEnabled();
  });

  it('says when the link is not valid, or has no token', async () => {
    withApi();
    const first = renderApp('/engage/unsubscribe?token=forged');
    expect(await screen.findByRole('heading', { name: S.invalidTitle })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Titan/)).not.toBeInTheDocument();
    first.unmount();
    renderApp('/engage/unsubscribe');
    expect(await screen.findByRole('heading', { name: S.invalidTitle })).toBeInTheDocument();
  });

  it('keeps the page and says so when unsubscribing fails', async () => {
    withApi();
    server.use(http.post('/api/email/unsubscribe/', () => fail(500, 'Server error.')));
    renderApp(`/engage/unsubscribe?token=${encodeURIComponent(TOKEN)}`);
    await userEvent.click(await screen.findByRole('button', { name: 'Unsubscribe' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(S.failed)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Unsubscribe from Acme Shoes' })).toBeInTheDocument();
  });
});
