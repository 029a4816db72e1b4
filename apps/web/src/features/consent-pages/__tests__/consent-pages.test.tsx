// The public consent pages a business's customers reach from its mail: the preference centre
// (/p/{token}: topics switched on and off for email, stop all, saved, in the customer's language,
// the business's name and not Titan's) and the double opt-in confirmation (/confirm/{token}:
// reading it confirms nothing, the button does). No session is needed.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { TConsentConfirmation, TPreferences, TUpdatePreferencesRequest } from '@titan/contracts';

import { fail, ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const TOKEN = 'tok_abc.123';
const BUSINESS = { name: 'Acme Shoes', logo_url: null, accent_color: '#1d4ed8' };

function preferencesApi(initial: Partial<TPreferences> = {}) {
  let prefs: TPreferences = {
    business: BUSINESS,
    email: 'ada@example.com',
    locale: 'en',
    topics: [
      { id: 1, name: 'Offers', description: 'Sales and discounts', subscribed: true },
      { id: 2, name: 'News', description: '', subscribed: true },
    ],
    unsubscribe_all: false,
    ...initial,
  };
  const puts: TUpdatePreferencesRequest[] = [];
  server.use(
    http.get('/api/public/preferences/:token/', ({ params }) =>
      params.token === TOKEN ? ok(prefs) : fail(400, 'This link is not valid.'),
    ),
    http.put('/api/public/preferences/:token/', async ({ request }) => {
      const body = (await request.json()) as TUpdatePreferencesRequest;
      puts.push(body);
      prefs = {
        ...prefs,
        unsubscribe_all: body.unsubscribe_all,
        topics: prefs.topics.map((t) => ({ ...t, subscribed: body.topics.includes(t.id) })),
      };
      return ok(prefs);
    }),
  );
  return puts;
}

describe('/p/{token}: the preference centre', () => {
  it('switches a topic off, saves, and says so; the business is named, not Titan', async () => {
    const puts = preferencesApi();
    renderApp(`/p/${encodeURIComponent(TOKEN)}`);
    expect(await screen.findByRole('heading', { name: 'Your emails from Acme Shoes' })).toBeInTheDocument();
    expect(screen.getByText('Acme Shoes', { selector: 'p' })).toBeInTheDocument();
    expect(screen.queryByText(/Titan/)).not.toBeInTheDocument();
    expect(document.title).toBe('Your emails from Acme Shoes');
    expect(screen.getByRole('group', { name: 'Topics · Email' })).toBeInTheDocument();
    const offers = screen.getByRole('checkbox', { name: /Offers/ });
    expect(offers).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await userEvent.click(offers);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Your choice is saved.');
    expect(puts).toEqual([{ topics: [2], unsubscribe_all: false }]);
    expect(screen.getByRole('checkbox', { name: /Offers/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /News/ })).toBeChecked();
  });

  it('stops all mail, then choosing a topic again subscribes again', async () => {
    const puts = preferencesApi();
    renderApp(`/p/${encodeURIComponent(TOKEN)}`);
    await userEvent.click(await screen.findByRole('checkbox', { name: /Stop all emails/ }));
    expect(screen.getByRole('checkbox', { name: /Offers/ })).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'You receive no more emails' })).toBeInTheDocument();
    expect(
      screen.getByText('ada@example.com will no longer receive marketing emails from Acme Shoes.'),
    ).toBeInTheDocument();
    expect(puts.at(-1)).toEqual({ topics: [], unsubscribe_all: true });

    await userEvent.click(screen.getByRole('checkbox', { name: /News/ }));
    expect(screen.getByRole('checkbox', { name: /Stop all emails/ })).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Your emails from Acme Shoes' })).toBeInTheDocument();
    expect(puts.at(-1)).toEqual({ topics: [2], unsubscribe_all: false });
  });

  it('speaks the customer’s language', async () => {
    preferencesApi({ locale: 'fr' });
    renderApp(`/p/${encodeURIComponent(TOKEN)}`);
    expect(await screen.findByRole('heading', { name: 'Vos e-mails de Acme Shoes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('lang', 'fr');
  });

  it('says when the link is not valid, and when saving fails', async () => {
    preferencesApi();
    const first = renderApp('/p/forged');
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    first.unmount();
    server.use(http.put('/api/public/preferences/:token/', () => fail(500, 'Server error.')));
    renderApp(`/p/${encodeURIComponent(TOKEN)}`);
    await userEvent.click(await screen.findByRole('checkbox', { name: /News/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Something went wrong. Please try again.')).toBeInTheDocument();
  });
});

describe('/confirm/{token}: the double opt-in confirmation', () => {
  function confirmApi() {
    let confirmed = false;
    const calls: string[] = [];
    const body = (): TConsentConfirmation => ({
      business: BUSINESS,
      channel: 'email',
      address: 'pat@example.com',
      list_name: 'Spring news',
      confirmed,
    });
    server.use(
      http.get('/api/public/confirm/:token/', ({ params }) => {
        calls.push('GET');
        return params.token === TOKEN ? ok(body()) : fail(400, 'This confirmation link is not valid.');
      }),
      http.post('/api/public/confirm/:token/', () => {
        calls.push('POST');
        confirmed = true;
        return ok(body());
      }),
    );
    return calls;
  }

  it('confirms only on the button, then says so', async () => {
    const calls = confirmApi();
    renderApp(`/confirm/${encodeURIComponent(TOKEN)}`);
    expect(
      await screen.findByRole('heading', { name: 'Confirm your subscription to Acme Shoes' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Press the button to confirm that pat@example.com wants to receive “Spring news” from Acme Shoes.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Titan/)).not.toBeInTheDocument();
    expect(calls).toEqual(['GET']);
    await userEvent.click(screen.getByRole('button', { name: 'Confirm my subscription' }));
    expect(await screen.findByRole('heading', { name: 'Subscription confirmed' })).toBeInTheDocument();
    expect(screen.getByText('pat@example.com will receive emails from Acme Shoes.')).toBeInTheDocument();
    expect(calls).toEqual(['GET', 'POST']);
  });

  it('says when the link is not valid', async () => {
    confirmApi();
    renderApp('/confirm/forged');
    expect(await screen.findByRole('heading', { name: 'This link is not valid' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
