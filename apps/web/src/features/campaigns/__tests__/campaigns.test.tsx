// The campaigns screens: the list; the composer prefilled by "Send to…" on a list, counting the
// audience live, saving the draft, showing the checklist and scheduling; a campaign's results with
// per-link clicks, and pausing it while it sends; a WhatsApp campaign composed from an approved
// template, its variables mapped to customer fields, its document header uploaded, and previewed.
import type { TCampaign, TCampaignReport, TCustomerList, TWhatsappTemplate } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { ACME, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { CAMPAIGN_STRINGS, CAMPAIGNS_STRINGS, COMPOSER_STRINGS } from '../strings';

const SLOW = { timeout: 30_000 };

// CodeMirror needs layout jsdom has not got (the template editor's source, on the way to "Send to…").
vi.mock('../../email-templates/components/code-editor', () => ({
  CodeEditor: ({ value, label }: { value: string; label: string }) => (
    <textarea aria-label={label} value={value} readOnly />
  ),
}));
type Body = Record<string, unknown>;

const ID = '0b8f6a2e-3c1d-4e5f-8a9b-0c1d2e3f4a5b';

function campaign(overrides: Partial<TCampaign> = {}): TCampaign {
  return {
    id: ID,
    name: 'Winter sale',
    channel: 'email',
    status: 'sending',
    audience: { list_ids: [4], segment_ids: [], exclude_list_ids: [] },
    content: { subject: 'Hello', html: '<p>Hi</p>' },
    sender: null,
    schedule: { mode: 'now' },
    throttle_per_hour: null,
    ab: null,
    winner: null,
    recipients: 10,
    processed: 4,
    skipped_reasons: { 'no consent': 2 },
    scheduled_at: '2026-12-01T09:00:00Z',
    started_at: '2026-12-01T09:00:00Z',
    finished_at: null,
    created_at: '2026-11-30T10:00:00Z',
    updated_at: '2026-11-30T10:00:00Z',
    ...overrides,
  };
}

const LIST: TCustomerList = {
  id: 4,
  name: 'Newsletter',
  description: '',
  kind: 'static',
  filter: null,
  member_count: 12,
  double_opt_in: false,
  created_at: '2026-11-20T10:00:00Z',
  updated_at: '2026-11-20T10:00:00Z',
} as TCustomerList;

const zeroTotals = {
  recipients: 10,
  sent: 4,
  delivered: 4,
  opened: 2,
  opened_machine: 1,
  clicked: 1,
  bounced: 0,
  complained: 0,
  unsubscribed: 0,
  replied: 0,
  failed: 0,
};
const REPORT: TCampaignReport = {
  totals: zeroTotals,
  variants: [{ index: 0, winner: false, ...zeroTotals }],
  links: [{ url: 'https://acme.test/sale', clicks: 3, unique_clickers: 1 }],
  series: [{ at: '2026-12-01T09:00:00.000Z', sent: 4, opened: 2, clicked: 3 }],
};

function waTemplate(overrides: Partial<TWhatsappTemplate>): TWhatsappTemplate {
  return {
    id: 1,
    meta_id: '100',
    name: 'order_update',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'POSITIONAL',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}' },
      { type: 'BODY', text: 'Hi {{1}}, your order is now {{2}}.' },
      { type: 'FOOTER', text: 'Titan Shop' },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'URL', text: 'Track order', url: 'https://shop.example.com/track/{{1}}' }],
      },
    ],
    header_format: 'TEXT',
    body_parameters: 2,
    header_parameters: 1,
    body_parameter_names: ['1', '2'],
    header_parameter_names: ['1'],
    button_parameters: [{ index: 0, type: 'URL', text: 'Track order' }],
    synced_at: '2026-11-20T10:00:00Z',
    ...overrides,
  };
}

const WA_TEMPLATES = [
  waTemplate({}),
  waTemplate({
    id: 2,
    name: 'invoice_ready',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'DOCUMENT' },
      { type: 'BODY', text: 'Hello {{1}}, your invoice is attached.' },
    ],
    header_format: 'DOCUMENT',
    body_parameters: 1,
    body_parameter_names: ['1'],
    header_parameter_names: [],
    button_parameters: [],
  }),
];

function withCampaigns(initial: Partial<TCampaign> = {}) {
  const state = {
    posts: [] as Body[],
    counts: [] as Body[],
    actions: [] as string[],
    templateQueries: [] as string[],
    uploads: [] as string[],
    lists: [LIST] as TCustomerList[],
    segmentCounts: [] as Body[],
    segmentsSaved: [] as Body[],
    deletes: [] as string[],
  };
  let current = campaign(initial);
  signIn();
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role: 'owner' }] }))),
    http.get('/api/business/customer-lists/', () =>
      ok({ count: state.lists.length, next: null, previous: null, results: state.lists }),
    ),
    http.post('/api/business/customer-lists/segments/count/', async ({ request }) => {
      const body = (await request.json()) as { rules: Record<string, unknown[]> };
      state.segmentCounts.push(body);
      // Pro customers: 5; pro or on the newsletter: 14.
      return ok({ count: 'any' in body.rules ? 14 : 5 });
    }),
    http.post('/api/business/customer-lists/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.segmentsSaved.push(body);
      const segment = {
        ...LIST,
        id: 9,
        name: String(body.name),
        kind: 'segment',
        filter: { rules: body.rules },
        member_count: 14,
      } as TCustomerList;
      state.lists.push(segment);
      return ok(segment, 201);
    }),
    http.get('/api/msg/labels/', () => ok([])),
    http.get('/api/template/', () => ok([])),
    http.get('/api/whatsapp/template/', ({ request }) => {
      state.templateQueries.push(new URL(request.url).searchParams.get('status') ?? '');
      return ok(WA_TEMPLATES);
    }),
    http.post('/api/whatsapp/media/', async ({ request }) => {
      const file = (await request.formData()).get('file') as File;
      // jsdom's multipart loses the file's name; the server answers the name it stored.
      state.uploads.push(await file.text());
      return ok(
        {
          id: 'media-88',
          mime_type: 'application/pdf',
          size: 3,
          file_name: 'invoice-dec.pdf',
          type: 'document',
        },
        201,
      );
    }),
    http.get('/api/consent/topics/', () =>
      ok([
        {
          id: 3,
          name: 'Offers',
          description: '',
          created_at: '2026-01-01T00:00:00Z',
          updated_at: '2026-01-01T00:00:00Z',
        },
      ]),
    ),
    http.get('/api/campaigns/', () => ok({ count: 1, next: null, previous: null, results: [current] })),
    http.get('/api/campaigns/:id/', () => ok(current)),
    http.post('/api/campaigns/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.posts.push(body);
      current = campaign({ ...(body as Partial<TCampaign>), status: 'draft' });
      return ok(current, 201);
    }),
    http.post('/api/campaigns/audience/count/', async ({ request }) => {
      const body = (await request.json()) as Body & { audience: { topic_id?: number | null } };
      state.counts.push(body);
      // Choosing the topic leaves out the two who switched it off.
      const left = body.audience.topic_id ? 2 : 0;
      return ok({
        total: 12,
        reachable: 9 - left,
        suppressed: 1,
        no_consent: 1,
        no_address: 1,
        out_of_topic: left,
      });
    }),
    http.get('/api/campaigns/:id/checklist/', () =>
      ok({
        ready: true,
        items: [
          { key: 'audience', ok: true, detail: null },
          { key: 'domain_verified', ok: true, detail: null },
        ],
        audience: { total: 12, reachable: 9, suppressed: 1, no_consent: 1, no_address: 1, out_of_topic: 0 },
        estimated_cost:
          current.channel === 'whatsapp'
            ? { category: 'MARKETING', per_message: null, total: null, currency: 'USD' }
            : null,
      }),
    ),
    http.post('/api/campaigns/:id/:action/', ({ params }) => {
      state.actions.push(String(params.action));
      current = campaign({ status: params.action === 'pause' ? 'paused' : 'sending' });
      return ok(current);
    }),
    http.delete('/api/campaigns/:id/', ({ params }) => {
      state.deletes.push(String(params.id));
      return ok(null);
    }),
    http.get('/api/campaigns/:id/report/', () => ok(REPORT)),
    http.get('/api/campaigns/:id/recipients/', () =>
      ok({
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            customer_id: 7,
            name: 'Ada',
            address: 'ada@example.com',
            variant: 0,
            state: 'recorded',
            due_at: '2026-12-01T09:00:00Z',
            send_id: 'f0e1d2c3-b4a5-4968-8776-655443322110',
            send_status: 'delivered',
            skip_reason: null,
          },
        ],
      }),
    ),
  );
  return state;
}

describe('Campaigns', () => {
  it('lists campaigns with their status', SLOW, async () => {
    withCampaigns();
    renderApp('/engage/campaigns');
    const table = await screen.findByRole('table', { name: CAMPAIGNS_STRINGS.tableLabel });
    const row = within(table).getByRole('row', { name: /Winter sale/ });
    expect(row).toHaveTextContent('Sending');
    expect(row).toHaveTextContent('Email');
  });

  it(
    'opens prefilled from a list, counts the audience live, saves the draft and schedules it',
    SLOW,
    async () => {
      const state = withCampaigns();
      renderApp('/engage/campaigns/new?list_id=4');
      expect(await screen.findByText(COMPOSER_STRINGS.count.reachable(9))).toBeInTheDocument();
      expect(screen.getByText(/1 suppressed · 1 without consent · 1 without an address/)).toBeInTheDocument();
      expect(state.counts.at(-1)).toMatchObject({ channel: 'email', audience: { list_ids: [4] } });
      // A topic: those who left it are counted apart, and the campaign targets it.
      await userEvent.selectOptions(await screen.findByLabelText(COMPOSER_STRINGS.topic), 'Offers');
      expect(await screen.findByText(COMPOSER_STRINGS.count.reachable(7))).toBeInTheDocument();
      expect(screen.getByText(/2 left the topic/)).toBeInTheDocument();
      expect(state.counts.at(-1)).toMatchObject({ audience: { list_ids: [4], topic_id: 3 } });
      await userEvent.type(screen.getByLabelText(COMPOSER_STRINGS.name), 'Winter sale');
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.next }));
      await userEvent.type(await screen.findByLabelText(COMPOSER_STRINGS.subject), 'Sale');
      await userEvent.type(screen.getByLabelText(COMPOSER_STRINGS.html), '<p>Now on</p>');
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.next }));
      await userEvent.click(await screen.findByLabelText(COMPOSER_STRINGS.modes.local));
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.next }));
      expect(await screen.findByText('Domain verified')).toBeInTheDocument();
      expect(state.posts).toHaveLength(1);
      expect(state.posts[0]).toMatchObject({
        name: 'Winter sale',
        channel: 'email',
        audience: { list_ids: [4], segment_ids: [], exclude_list_ids: [], topic_id: 3 },
        content: { subject: 'Sale', html: '<p>Now on</p>' },
        schedule: { mode: 'local', local_time: '09:00' },
      });
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.schedule_ }));
      expect(await screen.findByRole('table', { name: CAMPAIGN_STRINGS.linksLabel })).toBeInTheDocument();
      expect(state.actions).toEqual(['schedule']);
    },
  );

  it(
    '“Send to…” on an email template opens the composer with that template, saved as the campaign’s content',
    SLOW,
    async () => {
      const state = withCampaigns();
      const welcome = {
        id: 7,
        name: 'Welcome',
        subject: 'Hi {{ customer.name }}',
        preheader: '',
        format: 'mjml',
        content:
          '<mjml><mj-body><mj-section><mj-column><mj-text>Hi</mj-text></mj-column></mj-section></mj-body></mjml>',
        text_content: null,
        variables: ['customer.name'],
        version: 2,
        created_at: '2026-11-01T10:00:00Z',
        updated_at: '2026-11-20T10:00:00Z',
        thumbnail_url: null,
      };
      const { content: _c, text_content: _t, ...summary } = welcome;
      server.use(
        http.get('/api/template/', () => ok([summary])),
        http.get('/api/template/7/', () => ok(welcome)),
        http.get('/api/template/7/versions/', () => ok([])),
        http.post('/api/template/7/preview/', () =>
          ok({ subject: 'Hi Ada', html: '<p>Hi</p>', text: 'Hi', errors: {} }),
        ),
        http.get('/api/email/domains/', () => ok([])),
      );
      const { router } = renderApp('/engage/templates/email/7');
      await userEvent.click(await screen.findByRole('link', { name: 'Send to…' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/engage/campaigns/new'));
      expect(await screen.findByLabelText(COMPOSER_STRINGS.channel)).toHaveValue('email');
      // Chosen as the audience (the first box; the second excludes it).
      const [chosen] = await screen.findAllByRole('checkbox', { name: /^Newsletter/ });
      await userEvent.click(chosen!);
      expect(await screen.findByText(COMPOSER_STRINGS.count.reachable(9))).toBeInTheDocument();
      await userEvent.type(screen.getByLabelText(COMPOSER_STRINGS.name), 'Welcome wave');
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.next }));
      // The template is chosen, so nothing is written in place.
      const template = await screen.findByLabelText(COMPOSER_STRINGS.template);
      await waitFor(() => expect(template).toHaveValue('7'));
      expect(within(template as HTMLSelectElement).getByRole('option', { selected: true })).toHaveTextContent(
        'Welcome',
      );
      expect(screen.queryByLabelText(COMPOSER_STRINGS.html)).not.toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.next }));
      await userEvent.click(await screen.findByRole('button', { name: COMPOSER_STRINGS.next }));
      await waitFor(() => expect(state.posts).toHaveLength(1));
      expect(state.posts[0]).toMatchObject({
        name: 'Welcome wave',
        channel: 'email',
        audience: { list_ids: [4] },
        content: { template_id: 7 },
      });
    },
  );

  it(
    'shows results with per-link clicks and each recipient’s send, and pauses while sending',
    SLOW,
    async () => {
      const state = withCampaigns();
      renderApp(`/engage/campaigns/${ID}`);
      const links = await screen.findByRole('table', { name: CAMPAIGN_STRINGS.linksLabel });
      const row = within(links).getByRole('row', { name: /acme\.test\/sale/ });
      expect(row).toHaveTextContent('3');
      expect(screen.getByText(CAMPAIGN_STRINGS.totals.opened_machine)).toBeInTheDocument();
      const recipients = await screen.findByRole('table', { name: CAMPAIGN_STRINGS.recipientsLabel });
      expect(within(recipients).getByRole('link', { name: 'delivered' })).toHaveAttribute(
        'href',
        '/engage/event-logs/f0e1d2c3-b4a5-4968-8776-655443322110',
      );
      await userEvent.click(screen.getByRole('button', { name: CAMPAIGN_STRINGS.pause }));
      expect(await screen.findByRole('button', { name: CAMPAIGN_STRINGS.resume })).toBeInTheDocument();
      expect(state.actions).toEqual(['pause']);
    },
  );

  it(
    'composes a WhatsApp campaign: an approved template, variables from customer fields, a document header, a preview',
    SLOW,
    async () => {
      const state = withCampaigns();
      renderApp('/engage/campaigns/new?list_id=4&channel=whatsapp');
      expect(await screen.findByLabelText(COMPOSER_STRINGS.channel)).toHaveValue('whatsapp');
      expect(await screen.findByText(COMPOSER_STRINGS.count.reachable(9))).toBeInTheDocument();
      expect(state.counts.at(-1)).toMatchObject({ channel: 'whatsapp' });
      await userEvent.type(screen.getByLabelText(COMPOSER_STRINGS.name), 'Orders');
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.next }));

      const W = COMPOSER_STRINGS.whatsapp;
      const template = await screen.findByLabelText(W.template);
      expect(state.templateQueries).toContain('APPROVED');
      await userEvent.selectOptions(template, 'order_update (en_US)');
      // Header, body and URL button variables, each filled per recipient.
      await userEvent.selectOptions(screen.getByLabelText(W.source('header.1')), W.sources.field);
      await userEvent.type(screen.getByLabelText(W.fieldName('header.1')), 'order');
      await userEvent.selectOptions(screen.getByLabelText(W.source('1')), W.sources['customer.name']);
      await userEvent.type(screen.getByLabelText(W.text('2')), 'ready');
      const preview = screen.getByRole('region', { name: W.preview });
      expect(preview).toHaveTextContent('Order [fields.order]');
      expect(preview).toHaveTextContent('Hi [customer.name], your order is now ready.');
      expect(preview).toHaveTextContent('Track order');

      // A document header: uploaded once, sent to everyone.
      await userEvent.selectOptions(template, 'invoice_ready (en_US)');
      expect(screen.getByText(W.category('MARKETING'))).toBeInTheDocument();
      await userEvent.upload(
        screen.getByLabelText(W.upload),
        new File(['pdf'], 'invoice-dec.pdf', { type: 'application/pdf' }),
      );
      expect(await screen.findByText(W.uploaded('invoice-dec.pdf'))).toBeInTheDocument();
      expect(state.uploads).toEqual(['pdf']);
      await userEvent.selectOptions(screen.getByLabelText(W.source('1')), W.sources['customer.name']);
      expect(screen.getByRole('region', { name: W.preview })).toHaveTextContent(
        '[document: invoice-dec.pdf]Hello [customer.name], your invoice is attached.',
      );
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.next }));
      await userEvent.click(await screen.findByRole('button', { name: COMPOSER_STRINGS.next }));
      expect(await screen.findByText(COMPOSER_STRINGS.pricing('MARKETING'))).toBeInTheDocument();
      expect(state.posts[0]).toMatchObject({
        name: 'Orders',
        channel: 'whatsapp',
        sender: null,
        ab: null,
        content: {
          whatsapp_template: {
            name: 'invoice_ready',
            language: 'en_US',
            variables: { '1': 'customer.name' },
            header_media: { type: 'document', id: 'media-88', filename: 'invoice-dec.pdf' },
          },
        },
      });
    },
  );

  it(
    '“Send to…” on an approved WhatsApp template opens a WhatsApp campaign with it chosen',
    SLOW,
    async () => {
      withCampaigns();
      const { router } = renderApp('/engage/templates');
      await userEvent.click(
        await screen.findByRole('link', { name: 'Send “invoice_ready” (en_US) to customers' }),
      );
      await waitFor(() => expect(router.state.location.pathname).toBe('/engage/campaigns/new'));
      expect(await screen.findByLabelText(COMPOSER_STRINGS.channel)).toHaveValue('whatsapp');
      const [chosen] = await screen.findAllByRole('checkbox', { name: /^Newsletter/ });
      await userEvent.click(chosen!);
      await userEvent.type(screen.getByLabelText(COMPOSER_STRINGS.name), 'Invoices');
      await userEvent.click(screen.getByRole('button', { name: COMPOSER_STRINGS.next }));
      const template = await screen.findByLabelText(COMPOSER_STRINGS.whatsapp.template);
      await waitFor(() =>
        expect(
          within(template as HTMLSelectElement).getByRole('option', { selected: true }),
        ).toHaveTextContent('invoice_ready (en_US)'),
      );
      expect(screen.getByText(COMPOSER_STRINGS.whatsapp.category('MARKETING'))).toBeInTheDocument();
    },
  );

  it('builds a segment in the composer, counted live, saves it and sends to it', SLOW, async () => {
    const state = withCampaigns();
    renderApp('/engage/campaigns/new');
    const G = COMPOSER_STRINGS.segment;
    await userEvent.click(await screen.findByRole('button', { name: G.open }));
    const builder = screen.getByRole('region', { name: G.title });
    expect(within(builder).getByText(G.incomplete)).toBeInTheDocument();
    await userEvent.selectOptions(within(builder).getByLabelText(G.what(1)), G.subjects.field);
    await userEvent.type(within(builder).getByLabelText(G.fieldName(1)), 'plan');
    await userEvent.selectOptions(within(builder).getByLabelText(G.op(1)), G.ops.eq);
    await userEvent.type(within(builder).getByLabelText(G.value(1)), 'pro');
    expect(await within(builder).findByText(G.count(5))).toBeInTheDocument();
    expect(state.segmentCounts.at(-1)).toEqual({
      rules: { all: [{ field: 'customer.fields.plan', op: 'eq', value: 'pro' }] },
    });
    // Or on the newsletter list.
    await userEvent.click(within(builder).getByRole('button', { name: G.add }));
    await userEvent.selectOptions(within(builder).getByLabelText(G.what(2)), G.subjects.list);
    await userEvent.selectOptions(await within(builder).findByLabelText(G.value(2)), 'Newsletter');
    await userEvent.selectOptions(within(builder).getByLabelText(G.match), G.matches.any);
    expect(await within(builder).findByText(G.count(14))).toBeInTheDocument();
    expect(state.segmentCounts.at(-1)).toEqual({
      rules: {
        any: [
          { field: 'customer.fields.plan', op: 'eq', value: 'pro' },
          { field: 'list', op: 'in', value: 4 },
        ],
      },
    });
    await userEvent.type(within(builder).getByLabelText(G.name), 'Pro or newsletter');
    await userEvent.click(within(builder).getByRole('button', { name: G.save }));
    // Saved, chosen, and the campaign's audience (consent counted apart) follows it.
    const [chosen, excluded] = await screen.findAllByRole('checkbox', {
      name: /^Pro or newsletter \(segment/,
    });
    expect(chosen).toBeChecked();
    expect(excluded).not.toBeChecked();
    expect(state.segmentsSaved).toEqual([
      {
        name: 'Pro or newsletter',
        kind: 'segment',
        rules: state.segmentCounts.at(-1)!.rules,
      },
    ]);
    await waitFor(() =>
      expect(state.counts.at(-1)).toMatchObject({ audience: { list_ids: [], segment_ids: [9] } }),
    );
    expect(await screen.findByText(COMPOSER_STRINGS.count.reachable(9))).toBeInTheDocument();
  });

  it(
    'builds behaviour conditions: opened a given campaign lately, did not reply, has an open conversation',
    SLOW,
    async () => {
      const state = withCampaigns();
      renderApp('/engage/campaigns/new');
      const G = COMPOSER_STRINGS.segment;
      await userEvent.click(await screen.findByRole('button', { name: G.open }));
      const builder = screen.getByRole('region', { name: G.title });
      await userEvent.selectOptions(within(builder).getByLabelText(G.what(1)), G.subjects.opened);
      // The campaign is any until one is chosen; the days complete the condition.
      expect(within(builder).getByLabelText(G.campaign(1))).toHaveDisplayValue(G.anyCampaign);
      expect(within(builder).getByText(G.incomplete)).toBeInTheDocument();
      await userEvent.type(within(builder).getByLabelText(G.days(1)), '30');
      await waitFor(() =>
        expect(state.segmentCounts.at(-1)).toEqual({
          rules: { all: [{ event: 'opened', within_days: 30 }] },
        }),
      );
      await userEvent.selectOptions(within(builder).getByLabelText(G.campaign(1)), 'Winter sale');
      await userEvent.click(within(builder).getByRole('button', { name: G.add }));
      await userEvent.selectOptions(within(builder).getByLabelText(G.what(2)), G.subjects.replied);
      await userEvent.selectOptions(within(builder).getByLabelText(G.op(2)), G.ops.not_within_days);
      await userEvent.type(within(builder).getByLabelText(G.days(2)), '7');
      await userEvent.click(within(builder).getByRole('button', { name: G.add }));
      await userEvent.selectOptions(within(builder).getByLabelText(G.what(3)), G.subjects.open_conversation);
      // An open conversation takes no days and no campaign.
      expect(within(builder).queryByLabelText(G.days(3))).not.toBeInTheDocument();
      expect(within(builder).queryByLabelText(G.campaign(3))).not.toBeInTheDocument();
      expect(await within(builder).findByText(G.count(5))).toBeInTheDocument();
      await waitFor(() =>
        expect(state.segmentCounts.at(-1)).toEqual({
          rules: {
            all: [
              { event: 'opened', campaign_id: ID, within_days: 30 },
              { event: 'replied', within_days: 7, not: true },
              { event: 'open_conversation' },
            ],
          },
        }),
      );
      await userEvent.type(within(builder).getByLabelText(G.name), 'Opened, silent, waiting');
      await userEvent.click(within(builder).getByRole('button', { name: G.save }));
      await waitFor(() =>
        expect(state.segmentsSaved).toEqual([
          { name: 'Opened, silent, waiting', kind: 'segment', rules: state.segmentCounts.at(-1)!.rules },
        ]),
      );
    },
  );

  it(
    'nests condition groups: plan is pro and (opened lately or clicked lately), up to three levels',
    SLOW,
    async () => {
      const state = withCampaigns();
      renderApp('/engage/campaigns/new');
      const G = COMPOSER_STRINGS.segment;
      await userEvent.click(await screen.findByRole('button', { name: G.open }));
      const builder = screen.getByRole('region', { name: G.title });
      await userEvent.selectOptions(within(builder).getByLabelText(G.what(1)), G.subjects.field);
      await userEvent.type(within(builder).getByLabelText(G.fieldName(1)), 'plan');
      await userEvent.selectOptions(within(builder).getByLabelText(G.op(1)), G.ops.eq);
      await userEvent.type(within(builder).getByLabelText(G.value(1)), 'pro');

      // A group of its own, matched "any" to begin with, holding condition 2.
      await userEvent.click(within(builder).getByRole('button', { name: G.addGroup }));
      const group = within(builder).getByRole('listitem', { name: G.group(1) });
      expect(within(group).getByLabelText(G.groupMatch(1))).toHaveDisplayValue(G.matches.any);
      await userEvent.selectOptions(within(group).getByLabelText(G.what(2)), G.subjects.opened);
      await userEvent.type(within(group).getByLabelText(G.days(2)), '30');
      await userEvent.click(within(group).getByRole('button', { name: G.addToGroup(1) }));
      await userEvent.selectOptions(within(group).getByLabelText(G.what(3)), G.subjects.clicked);
      await userEvent.type(within(group).getByLabelText(G.days(3)), '7');
      const nested = {
        all: [
          { field: 'customer.fields.plan', op: 'eq', value: 'pro' },
          {
            any: [
              { event: 'opened', within_days: 30 },
              { event: 'clicked', within_days: 7 },
            ],
          },
        ],
      };
      await waitFor(() => expect(state.segmentCounts.at(-1)).toEqual({ rules: nested }));
      expect(await within(builder).findByText(G.count(5))).toBeInTheDocument();

      // A group in the group is the third level: it can hold conditions, not another group.
      await userEvent.click(within(group).getByRole('button', { name: G.addGroupTo(1) }));
      const inner = within(group).getByRole('listitem', { name: G.group(2) });
      expect(within(inner).getByRole('button', { name: G.addToGroup(2) })).toBeInTheDocument();
      expect(within(builder).queryByRole('button', { name: G.addGroupTo(2) })).not.toBeInTheDocument();
      // Its condition is incomplete, so it is left out and the rules stay as they were.
      expect(within(inner).getByLabelText(G.what(4))).toBeInTheDocument();
      await userEvent.selectOptions(within(inner).getByLabelText(G.groupMatch(2)), G.matches.all);
      await userEvent.selectOptions(within(inner).getByLabelText(G.what(4)), G.subjects.replied);
      await userEvent.type(within(inner).getByLabelText(G.days(4)), '3');
      await waitFor(() =>
        expect(state.segmentCounts.at(-1)).toEqual({
          rules: {
            all: [
              nested.all[0],
              { any: [...nested.all[1]!.any!, { all: [{ event: 'replied', within_days: 3 }] }] },
            ],
          },
        }),
      );
      await userEvent.click(within(inner).getByRole('button', { name: G.removeGroup(2) }));
      expect(within(builder).queryByRole('listitem', { name: G.group(2) })).not.toBeInTheDocument();
      // (Counted from the cache: these rules were counted before.)
      expect(await within(builder).findByText(G.count(5))).toBeInTheDocument();

      await userEvent.type(within(builder).getByLabelText(G.name), 'Engaged pros');
      await userEvent.click(within(builder).getByRole('button', { name: G.save }));
      await waitFor(() =>
        expect(state.segmentsSaved).toEqual([{ name: 'Engaged pros', kind: 'segment', rules: nested }]),
      );
    },
  );

  it('deletes a draft only after confirming, naming it', SLOW, async () => {
    const state = withCampaigns({ status: 'draft' });
    const { router } = renderApp(`/engage/campaigns/${ID}`);

    await userEvent.click(await screen.findByRole('button', { name: CAMPAIGN_STRINGS.delete }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete the draft Winter sale?' });
    expect(dialog).toHaveTextContent('Nothing was sent.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(state.deletes).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: CAMPAIGN_STRINGS.delete }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete the draft Winter sale?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Winter sale was deleted.')).toBeInTheDocument();
    expect(state.deletes).toEqual([ID]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/engage/campaigns'));
  });

  it('cancels a sending campaign only after confirming', SLOW, async () => {
    const state = withCampaigns({ status: 'sending' });
    renderApp(`/engage/campaigns/${ID}`);

    await userEvent.click(await screen.findByRole('button', { name: CAMPAIGN_STRINGS.cancel }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel Winter sale?' });
    expect(dialog).toHaveTextContent('Nothing more will be sent; what was sent stays in the results.');
    expect(state.actions).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: CAMPAIGN_STRINGS.cancel }));
    await waitFor(() => expect(state.actions).toEqual(['cancel']));
  });
});
