// Settings → QR form: edit the form beside a live preview, check it with the shared rules, save it
// (the server's field errors on their fields), pick the list, show and download the QR code.
import {
  QR_FORM_DEFAULTS,
  QR_FORM_ERRORS,
  type TQrSchema,
  type TSaveQrSchemaRequest,
} from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { QR_EDITOR_STRINGS as S } from '../strings';

const URL_OF_FORM = 'https://titan.example.test/v/ACME1234/join';
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path fill="#ffffff" d="M0 0h29v29H0z"/></svg>';

function schema(overrides: Partial<TQrSchema> = {}): TQrSchema {
  return {
    ...QR_FORM_DEFAULTS,
    fields: QR_FORM_DEFAULTS.fields.map((f) => ({ ...f })),
    consent: { ...QR_FORM_DEFAULTS.consent },
    url: URL_OF_FORM,
    qr_svg_url: '/api/business/qr-schema/qr.svg',
    qr_png_url: '/api/business/qr-schema/qr.png',
    submission_count: 0,
    created_at: null,
    updated_at: null,
    ...overrides,
  };
}

function asMember(role: 'owner' | 'agent') {
  signIn();
  server.use(http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))));
}

/** The API of one business: its form (saved on PUT), its lists, its QR code; every PUT body kept. */
function withApi(initial: TQrSchema = schema()) {
  let current = initial;
  const puts: TSaveQrSchemaRequest[] = [];
  const pngSizes: (string | null)[] = [];
  server.use(
    http.get('/api/business/', () =>
      ok({
        id: 1,
        name: 'Acme Shoes',
        phone_number: null,
        dial_code: '+44',
        created_on: '2026-11-01T00:00:00Z',
        created_by: 7,
        updated_on: '2026-11-01T00:00:00Z',
        updated_by: 7,
        unique_code: ACME.unique_code,
        sms_count: 0,
        email_count: 0,
        whatsapp_count: 0,
        subscription_status: 'inactive',
        time_zone: 'UTC',
        require_2fa: false,
      }),
    ),
    http.get('/api/business/qr-schema/', () => ok(current)),
    http.put('/api/business/qr-schema/', async ({ request }) => {
      const body = (await request.json()) as TSaveQrSchemaRequest;
      puts.push(body);
      if (body.slug === 'taken')
        return fail(400, 'Invalid input.', { list_id: [QR_FORM_ERRORS.staticListOnly] });
      current = schema({
        ...body,
        description: body.description ?? '',
        thank_you: body.thank_you ?? '',
        slug: body.slug ?? current.slug,
        active: body.active ?? true,
        list_id: body.list_id ?? null,
        consent: { email: false, sms: false, whatsapp: false, ...body.consent },
        fields: body.fields.map((f) => ({ ...f, required: f.required ?? false })),
        url: `https://titan.example.test/v/ACME1234/${body.slug ?? current.slug}`,
        created_at: '2026-11-24T10:00:00Z',
        updated_at: `2026-11-24T10:00:0${puts.length}Z`,
      });
      return ok(current);
    }),
    http.get('/api/business/customer-lists/', () =>
      ok({
        count: 2,
        next: null,
        previous: null,
        results: [
          {
            id: 5,
            name: 'Met at the shop',
            description: '',
            kind: 'static',
            double_opt_in: false,
            filter: null,
            member_count: 0,
            created_at: '',
            updated_at: '',
          },
          {
            id: 6,
            name: 'Has email',
            description: '',
            kind: 'segment',
            double_opt_in: false,
            filter: { has_email: true },
            member_count: 3,
            created_at: '',
            updated_at: '',
          },
        ],
      }),
    ),
    http.get('/api/business/qr-schema/qr.svg', () =>
      HttpResponse.text(SVG, { headers: { 'content-type': 'image/svg+xml' } }),
    ),
    http.get('/api/business/qr-schema/qr.png', ({ request }) => {
      pngSizes.push(new URL(request.url).searchParams.get('size'));
      return HttpResponse.arrayBuffer(new Uint8Array([0x89, 0x50, 0x4e, 0x47]).buffer, {
        headers: { 'content-type': 'image/png' },
      });
    }),
  );
  return { puts, pngSizes };
}

const originalCreateObjectURL = URL.createObjectURL;
const originalRevokeObjectURL = URL.revokeObjectURL;
afterEach(() =>
  Object.assign(URL, { createObjectURL: originalCreateObjectURL, revokeObjectURL: originalRevokeObjectURL }),
);

describe('Settings → QR form', { timeout: 30_000 }, () => {
  it('edits the form beside a live preview and saves it; the QR code comes with the first save', async () => {
    const user = userEvent.setup();
    asMember('owner');
    const { puts } = withApi();
    renderApp('/engage/settings/qr-form');

    const editor = await screen.findByRole('form', { name: S.title });
    expect(screen.getByRole('link', { name: 'QR form' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText(S.qrNotSaved)).toBeInTheDocument();
    const preview = screen.getByRole('region', { name: S.previewTitle });
    expect(within(preview).getByRole('heading', { name: 'Stay in touch' })).toBeInTheDocument();

    // Title and a new phone field show in the preview as they are typed.
    await user.clear(within(editor).getByLabelText(S.formTitle));
    await user.type(within(editor).getByLabelText(S.formTitle), 'Join the club');
    expect(within(preview).getByRole('heading', { name: 'Join the club' })).toBeInTheDocument();
    await user.click(within(editor).getByRole('button', { name: S.add }));
    const third = within(editor).getByRole('group', { name: S.field(3) });
    await user.type(within(third).getByLabelText(S.label), 'Mobile number');
    expect(within(third).getByLabelText(S.name)).toHaveValue('mobile_number');
    await user.selectOptions(within(third).getByLabelText(S.type), 'phone');
    expect(within(preview).getByLabelText('Mobile number (optional)')).toHaveAttribute('type', 'tel');
    expect(within(preview).getByLabelText('Mobile number: country code')).toHaveValue('44');
    await user.click(within(editor).getByLabelText('SMS'));
    expect(
      within(preview).getByLabelText('Yes, Acme Shoes may send me text messages (SMS).'),
    ).toBeInTheDocument();
    await user.selectOptions(within(editor).getByLabelText(S.list), 'Met at the shop');
    // Segments take no members: only static lists are offered.
    expect(within(editor).queryByRole('option', { name: 'Has email' })).not.toBeInTheDocument();

    await user.click(within(editor).getByRole('button', { name: S.save }));
    expect(await screen.findByText(S.saved)).toBeInTheDocument();
    expect(puts).toEqual([
      {
        title: 'Join the club',
        description: QR_FORM_DEFAULTS.description,
        thank_you: '',
        slug: 'join',
        active: true,
        list_id: 5,
        consent: { email: true, sms: true, whatsapp: false },
        fields: [
          { name: 'name', label: 'Name', type: 'text', required: true },
          { name: 'email', label: 'Email', type: 'email', required: true },
          { name: 'mobile_number', label: 'Mobile number', type: 'phone', required: false },
        ],
      },
    ]);
    const code = await screen.findByRole('img', { name: S.qrAlt(URL_OF_FORM) });
    expect(code.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`);
    expect(screen.getByText(URL_OF_FORM)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: S.openForm })).toHaveAttribute('href', URL_OF_FORM);
  });

  it('shows the shared rules before saving and the server’s field errors after', async () => {
    const user = userEvent.setup();
    asMember('owner');
    const { puts } = withApi();
    renderApp('/engage/settings/qr-form');
    const editor = await screen.findByRole('form', { name: S.title });

    // Without an email or phone field, a submission could not find the customer again.
    const second = within(editor).getByRole('group', { name: S.field(2) });
    await user.selectOptions(within(second).getByLabelText(S.type), 'text');
    await user.click(within(editor).getByRole('button', { name: S.save }));
    expect(await within(editor).findByText(QR_FORM_ERRORS.formNeedsContact)).toBeInTheDocument();
    expect(within(editor).getByText(QR_FORM_ERRORS.consentNeedsEmail)).toBeInTheDocument();
    expect(puts).toEqual([]);

    await user.selectOptions(within(second).getByLabelText(S.type), 'email');
    await user.clear(within(editor).getByLabelText(S.slug));
    await user.type(within(editor).getByLabelText(S.slug), 'taken');
    await user.click(within(editor).getByRole('button', { name: S.save }));
    expect(await within(editor).findByText(QR_FORM_ERRORS.staticListOnly)).toBeInTheDocument();
    expect(puts).toHaveLength(1);
  });

  it('downloads the saved code as SVG and as a print-size PNG', async () => {
    const user = userEvent.setup();
    asMember('owner');
    const { pngSizes } = withApi(
      schema({ created_at: '2026-11-24T10:00:00Z', updated_at: '2026-11-24T10:00:00Z', submission_count: 3 }),
    );
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:qr');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    renderApp('/engage/settings/qr-form');
    expect(await screen.findByText(S.submissions(3))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: S.downloadSvg }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe(SVG);
    await user.click(screen.getByRole('button', { name: S.downloadPng }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(2));
    expect(createObjectURL.mock.calls[1]![0].size).toBe(4);
    expect(pngSizes).toEqual(['1024']);
  });

  it('shows an agent the form and its code without letting them change it', async () => {
    asMember('agent');
    withApi(schema({ created_at: '2026-11-24T10:00:00Z', updated_at: '2026-11-24T10:00:00Z' }));
    renderApp('/engage/settings/qr-form');
    expect(await screen.findByText(S.notAllowed)).toBeInTheDocument();
    expect(screen.getByLabelText(S.formTitle)).toBeDisabled();
    expect(screen.queryByRole('button', { name: S.save })).not.toBeInTheDocument();
    expect(await screen.findByRole('img', { name: S.qrAlt(URL_OF_FORM) })).toBeInTheDocument();
  });
});
