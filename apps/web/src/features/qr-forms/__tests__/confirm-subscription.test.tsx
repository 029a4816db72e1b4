// The double opt-in page: nothing is confirmed until the button is pressed (mail scanners open
// links), then it says which address and business; a forged or expired link says so.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { QR_FORM_ERRORS } from '@titan/contracts';

import { fail, ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { QR_CONFIRM_STRINGS as S } from '../strings';

const TOKEN = 'eyJ.payload.sig';

function withApi() {
  const calls: string[] = [];
  server.use(
    http.post('/api/public/qr-forms/confirm/', async ({ request }) => {
      const { token } = (await request.json()) as { token: string };
      calls.push(token);
      if (token !== TOKEN)
        return fail(400, QR_FORM_ERRORS.confirmInvalid, { token: [QR_FORM_ERRORS.confirmInvalid] });
      return ok({ business_name: 'Acme Shoes', email: 'ada@example.com', subscribed: true });
    }),
  );
  return calls;
}

describe('/engage/confirm', () => {
  it('confirms only when asked, then says what was confirmed', { timeout: 20_000 }, async () => {
    const calls = withApi();
    renderApp(`/engage/confirm?token=${encodeURIComponent(TOKEN)}`);
    expect(await screen.findByRole('heading', { name: S.title })).toBeInTheDocument();
    expect(calls).toEqual([]);
    await userEvent.click(screen.getByRole('button', { name: S.button }));
    expect(await screen.findByRole('heading', { name: S.doneTitle })).toBeInTheDocument();
    expect(screen.getByText(S.done('Acme Shoes', 'ada@example.com'))).toBeInTheDocument();
    expect(calls).toEqual([TOKEN]);
  });

  it('says a forged or expired link is not valid', { timeout: 20_000 }, async () => {
    withApi();
    renderApp('/engage/confirm?token=forged');
    await userEvent.click(await screen.findByRole('button', { name: S.button }));
    expect(await screen.findByRole('heading', { name: S.invalidTitle })).toBeInTheDocument();
    expect(screen.getByText(QR_FORM_ERRORS.confirmInvalid)).toBeInTheDocument();
  });
});
