// WhatsApp template campaigns against the Cloud API simulator playing Meta: an approved template,
// its variables filled per recipient from their fields, only customers with WhatsApp consent and a
// value for every variable, quiet hours on each recipient's clock, one message per recipient
// however often the sender runs (the send spine's idempotency keys), and the checklist's words
// for a template Meta has not approved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_TEMPLATES, type WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type { TBusiness, TCampaign, TCampaignChecklist, TWhatsappMediaUpload } from '@titan/contracts';
import type { TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, type Session } from '../../../testing/identity';
import { callAs, startWhatsappBench, type WhatsappBench } from '../../../testing/whatsapp';
import { zoneAt } from '../../../testing/zones';
import { runCampaign } from '../campaigns.runner';

let bench: WhatsappBench;
let sim: WhatsappCloudSim;
let rt: TestRuntime;
let base: string;
let owner: Session;
let business: TBusiness;

const call = <T = unknown>(method: string, path: string, payload?: unknown) =>
  callAs<T>(base, method, path, owner, business, payload);

async function customer(
  name: string,
  phone: string,
  whatsappStatus: string,
  fields: Record<string, unknown>,
): Promise<number> {
  const [row] = await rt.database.query<{ id: string }>(
    `insert into customers (business_id, name, phone, whatsapp_status, fields)
     values ($1, $2, $3, $4, $5::jsonb) returning id`,
    [business.id, name, phone, whatsappStatus, JSON.stringify(fields)],
  );
  return Number(row!.id);
}

beforeAll(async () => {
  bench = await startWhatsappBench({ businessName: 'Bloom Florist', templates: SEED_TEMPLATES });
  ({ sim, rt, base, owner, business } = bench);
  expect((await call('POST', '/api/whatsapp/template/sync/')).status).toBe(200);
});

afterAll(() => bench?.close());

describe('WhatsApp template campaigns', () => {
  it('send the approved template with each recipient’s values, to consenting customers only, out of quiet hours, once', async () => {
    const day = zoneAt(13);
    const night = zoneAt(2);
    const ada = await customer('Ada', '+4915112340001', 'subscribed', { timezone: day, order: 'A-1' });
    const bob = await customer('Bob', '+4915112340002', 'subscribed', { timezone: day, order: 'B-2' });
    const cy = await customer('Cy', '+4915112340003', 'unknown', { timezone: day, order: 'C-3' });
    const dee = await customer('Dee', '+4915112340004', 'subscribed', { timezone: day }); // no order
    const eve = await customer('Eve', '+4915112340005', 'subscribed', { timezone: night, order: 'E-5' });
    const list = (await call<{ id: number }>('POST', '/api/business/customer-lists/', { name: 'Orders' }))
      .body.result.id;
    await call('POST', `/api/business/customer-lists/${list}/members/`, {
      customer_ids: [ada, bob, cy, dee, eve],
    });

    const created = await call<TCampaign>('POST', '/api/campaigns/', {
      name: 'Order news',
      channel: 'whatsapp',
      audience: { list_ids: [list] },
      content: {
        whatsapp_template: {
          name: 'order_update',
          language: 'en_US',
          variables: {
            'header.1': 'fields.order',
            '1': 'customer.name',
            '2': 'ready for pick-up',
            'button.1': 'fields.order',
          },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.result.id;

    const checklist = await call<TCampaignChecklist>('GET', `/api/campaigns/${id}/checklist/`);
    expect(checklist.body.result.ready).toBe(true);
    expect(checklist.body.result.audience).toMatchObject({ total: 5, reachable: 4, no_consent: 1 });
    expect(checklist.body.result.estimated_cost).toMatchObject({ category: 'UTILITY' });

    // A test to a staff number shows the fields the variables name.
    const test = await call<{ send_ids: string[] }>('POST', `/api/campaigns/${id}/test/`, {
      to: ['+4915100000099'],
    });
    expect(test.status, JSON.stringify(test.body)).toBe(202);
    expect(test.body.result.send_ids).toHaveLength(1);
    const staff = await sim.waitFor(() => sim.outbound.find((o) => o.to === '4915100000099'));
    expect(JSON.stringify(staff.body)).toContain('[fields.order]');

    const scheduled = await call<TCampaign>('POST', `/api/campaigns/${id}/schedule/`);
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    // The workers run the sender; running it again here changes nothing (idempotency keys).
    const deps = { ...rt.services.campaigns, clock: () => new Date() };
    await runCampaign(deps, id);
    await runCampaign(deps, id);

    const to = (n: string) => sim.outbound.filter((o) => o.to === n);
    await sim.waitFor(() => to('4915112340001').length > 0 && to('4915112340002').length > 0, 15_000);
    const adaMsg = to('4915112340001');
    expect(adaMsg).toHaveLength(1);
    expect(to('4915112340002')).toHaveLength(1);
    const template = adaMsg[0]!.body.template as {
      name: string;
      components: { type: string; parameters: { text: string }[]; index?: string }[];
    };
    expect(template.name).toBe('order_update');
    expect(template.components).toEqual([
      { type: 'header', parameters: [{ type: 'text', text: 'A-1' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'ready for pick-up' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '1', parameters: [{ type: 'text', text: 'A-1' }] },
    ]);
    // No consent, no value for a variable, or in their night: nothing sent to them (yet).
    expect(to('4915112340003')).toEqual([]);
    expect(to('4915112340004')).toEqual([]);
    expect(to('4915112340005')).toEqual([]);

    const recipients = await rt.database.query<{ customer_id: string; state: string; due_at: Date }>(
      `select customer_id, state, due_at from campaign_recipients where campaign_id = $1`,
      [id],
    );
    const eveRow = recipients.find((r) => Number(r.customer_id) === eve)!;
    expect(eveRow.state).toBe('pending');
    // Due at the end of quiet hours (08:00) on Eve's clock, six hours from her 02:00.
    expect(new Date(eveRow.due_at).getTime() - Date.now()).toBeGreaterThan(5 * 3_600_000);
    const campaign = (await call<TCampaign>('GET', `/api/campaigns/${id}/`)).body.result;
    expect(campaign.status).toBe('sending');
    expect(campaign.skipped_reasons).toMatchObject({
      'no consent': 1,
      'a template variable had no value': 1,
    });

    // Each message is a send of the campaign's broadcast, in the customer's WhatsApp conversation.
    const rows = await rt.database.query<{
      customer_id: string;
      cause: string;
      conversation_id: string | null;
    }>(
      `select s.customer_id, s.cause, s.conversation_id from sends s
        join broadcasts b on b.id::text = s.cause_id where b.campaign_id = $1`,
      [id],
    );
    expect(rows.map((r) => Number(r.customer_id)).sort()).toEqual([ada, bob].sort());
    expect(rows.every((r) => r.cause === 'broadcast' && r.conversation_id !== null)).toBe(true);
  });

  it('the checklist says why a template cannot be sent: not approved, a variable without a value', async () => {
    const list = (await call<{ id: number }>('POST', '/api/business/customer-lists/', { name: 'Pending' }))
      .body.result.id;
    const created = await call<TCampaign>('POST', '/api/campaigns/', {
      name: 'Not approved',
      channel: 'whatsapp',
      audience: { list_ids: [list] },
      content: {
        whatsapp_template: { name: 'new_feature_pending', language: 'en_US', variables: { '1': 'x' } },
      },
    });
    const id = created.body.result.id;
    const checklist = await call<TCampaignChecklist>('GET', `/api/campaigns/${id}/checklist/`);
    const content = checklist.body.result.items.find((i) => i.key === 'content')!;
    expect(content).toEqual({
      key: 'content',
      ok: false,
      detail: 'Only templates Meta approved can be sent; this one is PENDING.',
    });
    const missing = await call<TCampaign>('POST', '/api/campaigns/', {
      name: 'Missing variable',
      channel: 'whatsapp',
      audience: { list_ids: [list] },
      content: { whatsapp_template: { name: 'spring_sale', language: 'en_US', variables: {} } },
    });
    const items = (
      await call<TCampaignChecklist>('GET', `/api/campaigns/${missing.body.result.id}/checklist/`)
    ).body.result.items;
    expect(items.find((i) => i.key === 'content')!.detail).toBe(
      'Give template variable {{1}} a value: a customer field (customer.name, fields.plan) or text.',
    );
  });

  it('send a media-header template with the campaign’s file, by link or by upload, as Graph takes it', async () => {
    // Their afternoon, out of quiet hours.
    const ada = await customer('Ada', '+4915112340101', 'subscribed', { timezone: zoneAt(13) });
    const bob = await customer('Bob', '+4915112340102', 'subscribed', { timezone: zoneAt(13) });
    const list = (await call<{ id: number }>('POST', '/api/business/customer-lists/', { name: 'Invoices' }))
      .body.result.id;
    await call('POST', `/api/business/customer-lists/${list}/members/`, { customer_ids: [ada, bob] });
    const campaignWith = async (header_media: unknown) => {
      const res = await call<TCampaign>('POST', '/api/campaigns/', {
        name: 'Invoices',
        channel: 'whatsapp',
        audience: { list_ids: [list] },
        content: {
          whatsapp_template: {
            name: 'invoice_ready',
            language: 'en_US',
            variables: { '1': 'customer.name' },
            ...(header_media === undefined ? {} : { header_media }),
          },
        },
      });
      return res;
    };
    const contentCheck = async (id: string) =>
      (await call<TCampaignChecklist>('GET', `/api/campaigns/${id}/checklist/`)).body.result.items.find(
        (i) => i.key === 'content',
      )!;

    // Bad input is 400 on the field; a header the template does not take is named in the checklist.
    const bad = await campaignWith({ type: 'document', link: 'ftp://files.example.com/a.pdf' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('Enter an http(s) link.');
    const both = await campaignWith({ type: 'document', link: 'https://x.example/a.pdf', id: '1' });
    expect(both.status).toBe(400);
    expect(JSON.stringify(both.body)).toContain('Give either a link or an uploaded file.');
    const none = await campaignWith(undefined);
    expect(await contentCheck(none.body.result.id)).toMatchObject({
      ok: false,
      detail: "This template's header is a document: give its link or upload the file.",
    });
    const image = await campaignWith({ type: 'image', link: 'https://x.example/a.png' });
    expect((await contentCheck(image.body.result.id)).detail).toBe(
      "This template's header is a document, not an image.",
    );
    // Another business's upload is not this one's to send.
    const other = await createBusiness(rt.app!, owner, 'Other Florist');
    await rt.database.query(
      `insert into whatsapp_media (id, business_id, direction, mime_type) values ('77001', $1, 'outbound', 'application/pdf')`,
      [other.id],
    );
    const foreign = await campaignWith({ type: 'document', id: '77001' });
    expect((await contentCheck(foreign.body.result.id)).detail).toBe(
      'The uploaded header file is not one of this business’s uploads; upload it again.',
    );
    const scheduledForeign = await call('POST', `/api/campaigns/${foreign.body.result.id}/schedule/`);
    expect(scheduledForeign.status).toBe(400);

    // By link: every recipient gets the document the campaign names.
    const byLink = await campaignWith({
      type: 'document',
      link: 'https://files.example.com/invoice-nov.pdf',
      filename: 'invoice-nov.pdf',
    });
    expect(byLink.status, JSON.stringify(byLink.body)).toBe(201);
    expect(byLink.body.result.content.whatsapp_template?.header_media).toMatchObject({ type: 'document' });
    expect((await contentCheck(byLink.body.result.id)).ok).toBe(true);
    expect((await call('POST', `/api/campaigns/${byLink.body.result.id}/schedule/`)).status).toBe(200);
    const deps = { ...rt.services.campaigns, clock: () => new Date() };
    await runCampaign(deps, byLink.body.result.id);
    const to = (n: string) =>
      sim.outbound.filter((o) => o.to === n && JSON.stringify(o.body).includes('invoice_ready'));
    await sim.waitFor(() => to('4915112340101').length > 0 && to('4915112340102').length > 0, 15_000);
    expect((to('4915112340101')[0]!.body.template as { components: unknown[] }).components).toEqual([
      {
        type: 'header',
        parameters: [
          {
            type: 'document',
            document: { link: 'https://files.example.com/invoice-nov.pdf', filename: 'invoice-nov.pdf' },
          },
        ],
      },
      { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
    ]);

    // By upload: the file goes to Meta once; each send names its media id.
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n'))]),
      'invoice-dec.pdf',
    );
    const uploaded = await fetch(`${base}/api/whatsapp/media/`, {
      method: 'POST',
      headers: as(owner, business),
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const media = ((await uploaded.json()) as { result: TWhatsappMediaUpload }).result;
    const byUpload = await campaignWith({ type: 'document', id: media.id });
    expect((await call('POST', `/api/campaigns/${byUpload.body.result.id}/schedule/`)).status).toBe(200);
    await runCampaign(deps, byUpload.body.result.id);
    await sim.waitFor(() => to('4915112340102').length > 1, 15_000);
    expect(to('4915112340102')[1]!.body.template).toMatchObject({
      components: [{ type: 'header', parameters: [{ type: 'document', document: { id: media.id } }] }, {}],
    });
    // Nobody got either twice.
    expect(to('4915112340101')).toHaveLength(2);
    expect(to('4915112340102')).toHaveLength(2);
  });
});
