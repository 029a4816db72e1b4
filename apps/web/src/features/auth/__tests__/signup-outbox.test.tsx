import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';

import { ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

function serverSaysOutboxIsOn() {
  const meta = document.createElement('meta');
  meta.name = 'titan-dev-outbox';
  meta.content = 'on';
  document.head.append(meta);
}
afterEach(() => document.head.querySelector('meta[name="titan-dev-outbox"]')?.remove());

describe('the sign-up screen and the development outbox', () => {
  it('links to the outbox, and after sign-up to that address’s mail, when the server says it is on', async () => {
    serverSaysOutboxIsOn();
    server.use(
      http.post('/api/auth/register/', () =>
        ok(
          {
            user: {
              pk: 7,
              username: 'ada@example.com',
              first_name: 'Ada',
              last_name: '',
              email: 'ada@example.com',
              is_email_verified: false,
            },
          },
          201,
        ),
      ),
    );
    renderApp('/signup');
    const link = await screen.findByRole('link', { name: 'Open the development outbox' });
    expect(link).toHaveAttribute('href', '/dev/outbox');

    await userEvent.type(screen.getByLabelText('First name'), 'Ada');
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery');
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the development outbox' })).toHaveAttribute(
      'href',
      '/dev/outbox?to=ada%40example.com',
    );
  });

  it('shows no outbox link when the server does not say so', async () => {
    renderApp('/signup');
    expect(await screen.findByRole('heading', { name: 'Create your Titan account' })).toBeInTheDocument();
    expect(screen.queryByText(/development outbox/)).not.toBeInTheDocument();
  });
});
