import { IMPORT_ERRORS, REALTIME_PATH, type TCustomerImport, type TCustomerList } from '@titan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, ws } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { FILE_READING_ERRORS, IMPORT_STRINGS as S } from '../strings';

const ID = '6f1c3f7e-8a52-4d2e-9a57-2c1d1b0f4e11';

function anImport(overrides: Partial<TCustomerImport> = {}): TCustomerImport {
  return {
    id: ID,
    file_name: 'customers.csv',
    status: 'queued',
    mode: 'skip',
    double_opt_in: false,
    encoding: 'utf-8',
    delimiter: 'comma',
    consent: 'unknown',
    consent_proof: null,
    consent_channels: [],
    list_id: null,
    columns: [],
    total_rows: null,
    processed_rows: 0,
    inserted: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    errors_url: null,
    error: null,
    created_at: '2026-03-01T09:00:00.000Z',
    finished_at: null,
    ...overrides,
  };
}

const VIPS: TCustomerList = {
  id: 7,
  name: 'VIPs',
  description: '',
  kind: 'static',
  double_opt_in: false,
  filter: null,
  member_count: 0,
  created_at: '2026-03-01T09:00:00.000Z',
  updated_at: '2026-03-01T09:00:00.000Z',
};
const SEGMENT: TCustomerList = { ...VIPS, id: 8, name: 'Recent', kind: 'segment' };

const CSV = [
  'Full Name,E-Mail,Phone,Plan,Notes',
  'Ada Lovelace,ada@example.com,+44 7911 123456,pro,"first, and best"',
  'Grace Hopper,grace@example.com,,free,',
  '"Quoted ""Name""",quoted@example.com,,pro,"multi',
  'line"',
].join('\r\n');

const csvFile = (text: string, name = 'customers.csv') => new File([text], name, { type: 'text/csv' });

type TSent = { fields: Record<string, string>; file: string | null };

/** An owner of Acme with one static list and one segment; records what an import upload sends. */
function importer(options: { role?: 'owner' | 'agent'; upload?: () => Response } = {}) {
  signIn();
  const sent: TSent[] = [];
  server.use(
    http.get('/api/users/profile/', () =>
      ok(profile({ businesses: [{ ...ACME, role: options.role ?? 'owner' }] })),
    ),
    http.get('/api/business/customer-lists/', () =>
      ok({ count: 2, next: null, previous: null, results: [VIPS, SEGMENT] }),
    ),
    http.post('/api/business/customer-directory/import/', async ({ request }) => {
      const form = await request.formData();
      const fields: Record<string, string> = {};
      form.forEach((value, key) => {
        if (typeof value === 'string') fields[key] = value;
      });
      // (jsdom's File loses its name on the way into Node's fetch; the browser suite checks names.)
      const file = form.get('file');
      sent.push({ fields, file: typeof file === 'object' && file ? await file.text() : null });
      return options.upload?.() ?? ok(anImport({ mode: fields.mode as TCustomerImport['mode'] }), 202);
    }),
    http.get(`/api/business/customer-directory/imports/${ID}/`, () => ok(anImport())),
  );
  return sent;
}

async function choose(file: File) {
  await userEvent.upload(await screen.findByLabelText(S.chooseFile), file);
}

/** Answers the consent question: nothing starts until it is. */
async function answerConsent() {
  await userEvent.click(
    await screen.findByRole('radio', { name: (name) => name.startsWith(S.consents.unknown.label) }),
  );
}

const select = (column: string) => screen.getByRole('combobox', { name: S.mapColumn(column) });

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  vi.unstubAllGlobals();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

// Whole screens driven with user-event: slow on a loaded machine.
describe('customer import wizard', { timeout: 30_000 }, () => {
  it('previews the first rows of a chosen file, with columns matched from their names', async () => {
    importer();
    renderApp('/engage/directory/import');
    expect(await screen.findByRole('heading', { name: S.title })).toBeInTheDocument();
    await choose(csvFile(CSV));

    const table = await screen.findByRole('table', { name: S.previewTable });
    // The header reader's names: lower-cased.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['full name', 'e-mail', 'phone', 'plan', 'notes']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Ada Lovelace', 'ada@example.com', '+44 7911 123456', 'pro', 'first, and best']);
    expect(within(rows[2]!).getAllByRole('cell')[0]).toHaveTextContent('Quoted "Name"');
    expect(within(rows[2]!).getAllByRole('cell')[4]?.textContent).toBe('multi\r\nline');

    expect(select('full name')).toHaveValue('name');
    expect(select('e-mail')).toHaveValue('email');
    expect(select('phone')).toHaveValue('phone');
    expect(select('plan')).toHaveValue('field:plan');
    expect(within(select('plan')).getByRole('option', { name: S.targets.field('plan') })).toBeInTheDocument();
    expect(screen.queryByText(IMPORT_ERRORS.noContactColumn)).not.toBeInTheDocument();
    expect(screen.getByText(S.delimiter('comma'))).toBeInTheDocument();
    // The consent question is asked before anything starts.
    expect(screen.getByRole('button', { name: S.start })).toBeDisabled();
    expect(screen.getByText(S.consentMissing)).toBeInTheDocument();
    await answerConsent();
    expect(screen.getByRole('button', { name: S.start })).toBeEnabled();
  });

  it('reads a file dropped on the zone', async () => {
    importer();
    renderApp('/engage/directory/import');
    const zone = await screen.findByRole('group', { name: S.dropLabel });
    fireEvent.dragOver(zone, { dataTransfer: { files: [] } });
    fireEvent.drop(zone, {
      dataTransfer: { files: [csvFile('email,name\nzoe@example.com,Zoë\n', 'zoe.csv')] },
    });
    const table = await screen.findByRole('table', { name: S.previewTable });
    expect(
      within(table)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['zoe@example.com', 'Zoë']);
    expect(screen.getByText('zoe.csv')).toBeInTheDocument();

    // A legacy Windows-1252 file reads as the server will read it.
    await userEvent.click(screen.getByRole('button', { name: S.otherFile }));
    const legacy = new Uint8Array([
      ...new TextEncoder().encode('name,email\nRen'),
      0xe9,
      ...new TextEncoder().encode('e,renee@example.com\n'),
    ]);
    await choose(new File([legacy], 'legacy.csv', { type: 'text/csv' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: S.previewTable })).getAllByRole('cell')[0],
      ).toHaveTextContent('Renée'),
    );
  });

  it('says why a file cannot be used: the spec’s file reading errors, empty, not CSV', async () => {
    importer();
    renderApp('/engage/directory/import');
    await screen.findByRole('group', { name: S.dropLabel });

    await choose(csvFile(''));
    expect(await screen.findByText(IMPORT_ERRORS.empty)).toBeInTheDocument();
    await choose(csvFile('\n \n'));
    expect(await screen.findByText(IMPORT_ERRORS.empty)).toBeInTheDocument();
    // A spreadsheet dropped (the picker offers CSV files only).
    fireEvent.drop(screen.getByRole('group', { name: S.dropLabel }), {
      dataTransfer: {
        files: [new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0])], 'sheet.xlsx')],
      },
    });
    expect(await screen.findByText(IMPORT_ERRORS.notCsv)).toBeInTheDocument();

    // The browser fails to read the file: each failure's own message, word for word.
    const failures: [string, string][] = [
      ['NotReadableError', FILE_READING_ERRORS.notReadable],
      ['NotFoundError', FILE_READING_ERRORS.notFound],
      ['AbortError', FILE_READING_ERRORS.aborted],
      ['EncodingError', FILE_READING_ERRORS.encoding],
      ['SecurityError', FILE_READING_ERRORS.security],
      ['SomethingElse', FILE_READING_ERRORS.unknown],
    ];
    for (const [name, message] of failures) {
      vi.stubGlobal(
        'FileReader',
        class {
          result: string | null = null;
          error: { name: string } | null = null;
          onload: (() => void) | null = null;
          onerror: (() => void) | null = null;
          onabort: (() => void) | null = null;
          readAsArrayBuffer() {
            setTimeout(() => {
              this.error = { name };
              this.onerror?.();
            });
          }
        },
      );
      await choose(csvFile(CSV));
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(screen.queryByRole('table', { name: S.previewTable })).not.toBeInTheDocument();
    }
    // An aborted read (the abort event) too.
    vi.stubGlobal(
      'FileReader',
      class {
        onabort: (() => void) | null = null;
        readAsArrayBuffer() {
          setTimeout(() => this.onabort?.());
        }
      },
    );
    await choose(csvFile(CSV));
    expect(await screen.findByText(FILE_READING_ERRORS.aborted)).toBeInTheDocument();
  });

  it('asks for an email or phone column, then sends the mapping, mode and list', async () => {
    const sent = importer();
    fakeRealtime();
    renderApp('/engage/directory/import');
    await choose(csvFile('Kunde,Kontakt,Stadt\nHans,hans@example.com,Berlin\n', 'kunden.csv'));
    await screen.findByRole('table', { name: S.previewTable });
    // Nothing is read as an email or phone: the server would refuse the file.
    expect(screen.getByText(IMPORT_ERRORS.noContactColumn)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: S.start })).toBeDisabled();

    await userEvent.selectOptions(select('kontakt'), 'email');
    await userEvent.selectOptions(select('kunde'), 'name');
    await userEvent.selectOptions(select('stadt'), 'ignore');
    expect(screen.queryByText(IMPORT_ERRORS.noContactColumn)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: new RegExp(S.modes.merge.label) }));
    const lists = screen.getByRole('combobox', { name: S.listLabel });
    // Only static lists can be filled by an import.
    await waitFor(() =>
      expect(
        within(lists)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([S.noList, 'VIPs']),
    );
    await userEvent.selectOptions(lists, 'VIPs');
    await answerConsent();
    // Unknown consent: each person may be asked to confirm by email (double opt-in).
    const confirm = screen.getByRole('checkbox', { name: S.doubleOptIn });
    expect(confirm).toHaveAccessibleDescription(S.doubleOptInHint);
    await userEvent.click(confirm);
    await userEvent.click(screen.getByRole('button', { name: S.start }));

    await screen.findByRole('progressbar', { name: S.progressLabel });
    expect(sent).toEqual([
      {
        file: 'Kunde,Kontakt,Stadt\nHans,hans@example.com,Berlin\n',
        fields: {
          mode: 'merge',
          list_id: '7',
          column_map: JSON.stringify({ kunde: 'name', kontakt: 'email', stadt: 'ignore' }),
          delimiter: 'comma',
          consent: 'unknown',
          double_opt_in: 'true',
        },
      },
    ]);
  });

  it('reads a semicolon file as the server will, and sends the consent the rows carry with its proof', async () => {
    const sent = importer({
      upload: () =>
        ok(
          anImport({
            status: 'done',
            delimiter: 'semicolon',
            consent: 'subscribed',
            consent_proof: 'Shop newsletter form, 2024',
            consent_channels: ['email'],
          }),
          202,
        ),
    });
    fakeRealtime();
    renderApp('/engage/directory/import');
    // Excel in European locales: semicolons between cells, commas in numbers.
    const text = 'Name;E-Mail;Umsatz\nJosé Müller;jose@example.com;1,5\n';
    await choose(csvFile(text, 'kunden.csv'));
    const table = await screen.findByRole('table', { name: S.previewTable });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['name', 'e-mail', 'umsatz']);
    expect(screen.getByText(S.delimiter('semicolon'))).toBeInTheDocument();
    expect(select('e-mail')).toHaveValue('email');

    await userEvent.click(
      screen.getByRole('radio', { name: (name) => name.startsWith(S.consents.subscribed.label) }),
    );
    // Subscribed needs its proof before anything starts.
    expect(screen.getByRole('button', { name: S.start })).toBeDisabled();
    expect(screen.getByText(S.consentProofShort)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(S.consentProofLabel), 'Shop newsletter form, 2024');
    await userEvent.click(screen.getByRole('checkbox', { name: S.consentChannels.sms }));
    await userEvent.click(screen.getByRole('checkbox', { name: S.consentChannels.whatsapp }));
    await userEvent.click(screen.getByRole('button', { name: S.start }));

    expect(
      await screen.findByText(/Delimiter: semicolon · Consent: subscribed \(email\)/),
    ).toBeInTheDocument();
    expect(sent).toEqual([
      {
        file: text,
        fields: {
          mode: 'skip',
          column_map: JSON.stringify({ name: 'name', 'e-mail': 'email', umsatz: 'umsatz' }),
          delimiter: 'semicolon',
          consent: 'subscribed',
          consent_proof: 'Shop newsletter form, 2024',
          consent_channels: 'email',
        },
      },
    ]);
  });

  it('shows the server’s reasons when it refuses the upload', async () => {
    importer({
      upload: () =>
        fail(400, 'Invalid input.', {
          file: ['The file is larger than 100 MB. Split it and import the parts.'],
        }),
    });
    renderApp('/engage/directory/import');
    await choose(csvFile(CSV));
    await answerConsent();
    await userEvent.click(await screen.findByRole('button', { name: S.start }));
    expect(await screen.findByText(IMPORT_ERRORS.tooLarge)).toBeInTheDocument();
    expect(screen.getByRole('table', { name: S.previewTable })).toBeInTheDocument();
  });

  it('moves the progress bar with each batch pushed over the socket, then shows the counts and the errors CSV', async () => {
    importer();
    const realtime = fakeRealtime();
    let gets = 0;
    server.use(
      http.get(`/api/business/customer-directory/imports/${ID}/`, () => {
        gets += 1;
        return ok(anImport({ status: 'running', total_rows: 4000 }));
      }),
      http.get(`/api/business/customer-directory/imports/${ID}/errors/`, () =>
        HttpResponse.text('row,reason,email\r\n3,Invalid email address “x”.,x\r\n', {
          headers: { 'content-type': 'text/csv' },
        }),
      ),
    );
    const saved: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:errors';
    });
    URL.revokeObjectURL = vi.fn();
    renderApp('/engage/directory/import');
    await choose(csvFile(CSV));
    await answerConsent();
    await userEvent.click(await screen.findByRole('button', { name: S.start }));

    const bar = await screen.findByRole('progressbar', { name: S.progressLabel });
    await waitFor(() =>
      expect(realtime.subscriptions().at(-1)).toMatchObject({ topic: 'imports', import_id: ID }),
    );
    expect(realtime.subscriptions().at(-1)).toMatchObject({ business_code: ACME.unique_code });
    await screen.findByText(S.live);
    const push = (imp: Partial<TCustomerImport>) =>
      realtime.change('imports', {
        table: 'customer_imports',
        event: 'UPDATE',
        new: anImport(imp),
        old: null,
      });

    push({ status: 'running', total_rows: 4000, processed_rows: 1000, inserted: 990, failed: 10 });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '25'));
    expect(screen.getByText('1,000 of 4,000 rows')).toBeInTheDocument();
    push({ status: 'running', total_rows: 4000, processed_rows: 3000, inserted: 2980, failed: 20 });
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '75'));
    // Another import's events are not this one's.
    realtime.change('imports', {
      table: 'customer_imports',
      event: 'UPDATE',
      new: anImport({ id: '00000000-0000-4000-8000-000000000000', status: 'done', processed_rows: 9 }),
      old: null,
    });
    push({
      status: 'done',
      total_rows: 4000,
      processed_rows: 4000,
      inserted: 3950,
      updated: 0,
      skipped: 20,
      failed: 30,
      errors_url: `/api/business/customer-directory/imports/${ID}/errors/`,
      finished_at: '2026-03-01T09:01:00.000Z',
    });
    expect(await screen.findByRole('heading', { name: S.doneTitle })).toBeInTheDocument();
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    const counts = screen.getByLabelText(S.countsLabel);
    expect(
      within(counts)
        .getAllByRole('term')
        .map((t) => `${t.textContent} ${t.nextElementSibling?.textContent}`),
    ).toEqual(['Added 3,950', 'Updated 0', 'Skipped 20', 'Failed 30']);
    // Live all along: the import was fetched once when the subscription started, never polled.
    expect(gets).toBeLessThanOrEqual(1);

    await userEvent.click(screen.getByRole('button', { name: S.downloadErrors }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(await saved[0]!.text()).toContain('3,Invalid email address “x”.,x');
    expect(screen.getByRole('link', { name: S.viewDirectory })).toHaveAttribute('href', '/engage/directory');
  });

  it('polls the import while the socket is down, to its end', async () => {
    importer();
    // The socket never gets going: every connection is closed at once.
    server.use(
      ws.link(`ws://${window.location.host}${REALTIME_PATH}`).addEventListener('connection', ({ client }) => {
        client.close(1011, 'down');
      }),
    );
    const answers = [
      anImport({ status: 'running', total_rows: 10, processed_rows: 5 }),
      anImport({ status: 'done', total_rows: 10, processed_rows: 10, inserted: 10 }),
    ];
    let gets = 0;
    server.use(
      http.get(`/api/business/customer-directory/imports/${ID}/`, () => ok(answers[Math.min(gets++, 1)])),
    );
    renderApp(`/engage/directory/import?id=${ID}`);
    const bar = await screen.findByRole('progressbar', { name: S.progressLabel });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByText(S.polling)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: S.doneTitle }, { timeout: 8000 })).toBeInTheDocument();
    expect(bar).toHaveAttribute('aria-valuenow', '100');
    // No errors: nothing to download.
    expect(screen.queryByRole('button', { name: S.downloadErrors })).not.toBeInTheDocument();
  });

  it('tells a role that cannot import so', async () => {
    importer({ role: 'agent' });
    renderApp('/engage/directory/import');
    expect(await screen.findByText(S.readOnly)).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: S.dropLabel })).not.toBeInTheDocument();
  });
});
