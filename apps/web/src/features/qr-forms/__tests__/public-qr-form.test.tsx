// The public visitor form at /v/{businessCode}/{slug}: no sign-in, each field drawn by type, phone
// and number fields take digits only (the spec's numeric-only key handler), the page's own checks
// and the server's field errors under their fields, consent worded per channel, a thank-you once
// sent; an unknown form says it is not available.
import { QR_CONSENT_WORDING, QR_FORM_ERRORS, type TPublicQrForm, type TQrSubmission } from '@titan/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail, ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { QR_PUBLIC_STRINGS as S } from '../strings';

const PATH = '/api/public/qr-forms/acme-code/visit/';

const FORM: TPublicQrForm = {
  business: { name: 'Acme Shoes', dial_code: '+44' },
  title: 'Join the Acme club',
  description: 'Offers and news from the shop.',
  fields: [
    { name: 'name', label: 'Your name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: false },
    { name: 'mobile', label: 'Mobile', type: 'phone', required: false },
    { name: 'visits', label: 'Visits a month', type: 'number', required: false },
    { name: 'store', label: 'Store', type: 'select', required: false, options: ['North', 'South'] },
    { name: 'terms', label: 'I accept the club rules', type: 'checkbox', required: true },
  ],
  consent: { email: true, sms: true, whatsapp: false },
  thank_you: '',
};

function withApi(answer?: (body: TQrSubmission) => Response | undefined) {
  const bodies: TQrSubmission[] = [];
  server.use(
    http.get(PATH, () => ok(FORM)),
    http.get('/api/public/qr-forms/acme-code/nope/', () => fail(404, QR_FORM_ERRORS.notFound)),
    http.post(PATH, async ({ request }) => {
      const body = (await request.json()) as TQrSubmission;
      bodies.push(body);
      return answer?.(body) ?? ok(null, 201);
    }),
  );
  return bodies;
}

describe('/v/:businessCode/:slug', { timeout: 20_000 }, () => {
  it('draws the form and sends it, then thanks the visitor', async () => {
    const user = userEvent.setup();
    const bodies = withApi();
    renderApp('/v/acme-code/visit');

    expect(await screen.findByRole('heading', { level: 1, name: 'Join the Acme club' })).toBeInTheDocument();
    expect(screen.getByText('Offers and news from the shop.')).toBeInTheDocument();
    expect(screen.getByLabelText('Your name')).toHaveAttribute('aria-required', 'true');
    expect(screen.getByLabelText('Email (optional)')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Mobile: country code')).toHaveValue('44');
    // Consent, one box per channel the form asks about, in the words the server records.
    const consent = screen.getByRole('group', { name: S.consentLegend });
    const boxes = within(consent).getAllByRole('checkbox');
    expect(boxes.map((b) => b.closest('label')?.textContent)).toEqual([
      QR_CONSENT_WORDING.email('Acme Shoes'),
      QR_CONSENT_WORDING.sms('Acme Shoes'),
    ]);
    expect(boxes.every((b) => !(b as HTMLInputElement).checked)).toBe(true);

    await user.type(screen.getByLabelText('Your name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Email (optional)'), 'ada@example.test');
    await user.type(screen.getByLabelText('Mobile (optional)'), '07911 123-456');
    await user.type(screen.getByLabelText('Visits a month (optional)'), '3x');
    await user.selectOptions(screen.getByLabelText('Store (optional)'), 'North');
    await user.click(screen.getByLabelText('I accept the club rules'));
    await user.click(within(consent).getByLabelText(QR_CONSENT_WORDING.sms('Acme Shoes')));
    await user.click(screen.getByRole('button', { name: S.submit }));

    expect(await screen.findByRole('heading', { name: S.thanksTitle })).toBeInTheDocument();
    expect(screen.getByText(S.thanks('Acme Shoes'))).toBeInTheDocument();
    expect(bodies).toEqual([
      {
        fields: {
          name: 'Ada Lovelace',
          email: 'ada@example.test',
          mobile: '+447911123456',
          visits: '3',
          store: 'North',
          terms: true,
        },
        consent: { email: false, sms: true },
      },
    ]);

    await user.click(screen.getByRole('button', { name: S.sendAnother }));
    expect(screen.getByLabelText('Your name')).toHaveValue('');
  });

  it('lets only digits, Backspace, Tab, arrows and Delete into phone and number fields', async () => {
    const user = userEvent.setup();
    withApi();
    renderApp('/v/acme-code/visit');
    const visits = await screen.findByLabelText('Visits a month (optional)');
    await user.type(visits, '1a2.-+ 3');
    expect(visits).toHaveValue('123');
    await user.type(visits, '{ArrowLeft}{Backspace}{Delete}9');
    expect(visits).toHaveValue('19');
    const mobile = screen.getByLabelText('Mobile (optional)');
    await user.type(mobile, '+44 (0)7911');
    expect(mobile).toHaveValue('4407911');
    await user.click(mobile);
    await user.tab();
    expect(mobile).not.toHaveFocus();
  });

  it('checks answers before sending, and puts the server’s field errors under their fields', async () => {
    const user = userEvent.setup();
    const bodies = withApi((body) =>
      body.fields.email === 'taken@example.test'
        ? fail(400, 'Invalid input.', {
            'fields.mobile': [QR_FORM_ERRORS.phone],
            'consent.sms': [QR_FORM_ERRORS.consentPhoneMissing],
          })
        : undefined,
    );
    renderApp('/v/acme-code/visit');
    await user.click(await screen.findByRole('button', { name: S.submit }));
    // Required fields are checked on the page: nothing is sent.
    expect(await screen.findAllByText(QR_FORM_ERRORS.required)).toHaveLength(2);
    expect(screen.getByLabelText('Your name')).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toEqual([]);

    await user.type(screen.getByLabelText('Your name'), 'Ada');
    await user.type(screen.getByLabelText('Email (optional)'), 'not-an-email');
    await user.click(screen.getByLabelText('I accept the club rules'));
    await user.click(screen.getByRole('button', { name: S.submit }));
    expect(await screen.findByText(QR_FORM_ERRORS.email)).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await user.clear(screen.getByLabelText('Email (optional)'));
    await user.type(screen.getByLabelText('Email (optional)'), 'taken@example.test');
    await user.type(screen.getByLabelText('Mobile (optional)'), '12345');
    await user.click(screen.getByLabelText(QR_CONSENT_WORDING.sms('Acme Shoes')));
    await user.click(screen.getByRole('button', { name: S.submit }));
    expect(await screen.findByText(QR_FORM_ERRORS.phone)).toBeInTheDocument();
    expect(screen.getByText(QR_FORM_ERRORS.consentPhoneMissing)).toBeInTheDocument();
    expect(screen.getByLabelText('Mobile (optional)')).toHaveFocus();
    expect(bodies).toHaveLength(1);
    expect(screen.queryByRole('heading', { name: S.thanksTitle })).not.toBeInTheDocument();
  });

  it('says when sending too often, keeping the answers', async () => {
    const user = userEvent.setup();
    withApi(() => fail(429, 'Too many attempts. Try again in 60 seconds.', null, { 'retry-after': '60' }));
    renderApp('/v/acme-code/visit');
    await user.type(await screen.findByLabelText('Your name'), 'Ada');
    await user.type(screen.getByLabelText('Email (optional)'), 'ada@example.test');
    await user.click(screen.getByLabelText('I accept the club rules'));
    await user.click(screen.getByRole('button', { name: S.submit }));
    expect(await screen.findByText('Too many attempts. Try again in 60 seconds.')).toBeInTheDocument();
    expect(screen.getByLabelText('Your name')).toHaveValue('Ada');
  });

  it('says when the form is not available', async () => {
    withApi();
    renderApp('/v/acme-code/nope');
    expect(await screen.findByRole('heading', { name: S.unavailableTitle })).toBeInTheDocument();
    expect(screen.getByText(S.unavailable)).toBeInTheDocument();
  });
});
