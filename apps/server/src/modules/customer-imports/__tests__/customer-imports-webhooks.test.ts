// What an import tells a business's webhook endpoints: `customer.created` for each row it added,
// `customer.updated` for each it wrote over, `consent.changed` for each consent it set — recorded
// in the batch's transaction, only for a business that listens, never another business's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TCustomerImport } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { runImport } from '../customer-imports.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let otherOwner: Session;
let other: TBusiness;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer, { firstName: 'Ivy' });
  business = await createBusiness(app, owner, 'Hooked Imports');
  otherOwner = await signUp(app, rt.mailer, { firstName: 'Olaf' });
  other = await createBusiness(app, otherOwner, 'Quiet Imports');
  for (const b of [business, other])
    await rt.database.query(`update businesses set dial_code = '+44' where id = $1`, [b.id]);
});
afterAll(() => rt.destroy());

async function importFile(
  csv: string,
  fields: Record<string, string>,
  who: Session = owner,
  biz: TBusiness = business,
): Promise<TCustomerImport> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([Buffer.from(csv)], { type: 'text/csv' }), 'customers.csv');
  const res = await app.inject({
    method: 'POST',
    url: '/api/business/customer-directory/import/',
    headers: as(who, biz),
    payload: form,
  });
  expect(res.statusCode, res.body).toBe(202);
  const created: TCustomerImport = res.json().result;
  await runImport(rt.services, created.id);
  return created;
}

/** The events waiting in the outbox for a business, oldest first. */
async function recorded(biz: TBusiness) {
  return rt.database.query<{
    type: string;
    payload: { type: string; data: Record<string, unknown> };
  }>(`select type, payload from webhook_events where business_id = $1 order by created_at, id`, [biz.id]);
}

describe('webhook events of an import', () => {
  it('records customer.created, customer.updated and consent.changed for what the import wrote', async () => {
    const endpoint = await app.inject({
      method: 'POST',
      url: '/api/webhooks/endpoints/',
      headers: as(owner, business),
      payload: {
        url: 'http://localhost:9/hook',
        event_types: ['customer.created', 'customer.updated', 'consent.changed'],
      },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);

    await importFile('name,email\nAda Import,ada@imports.example\nBo Import,bo@imports.example\n', {
      consent: 'subscribed',
      consent_proof: 'Signed up at the shop counter',
      consent_channels: 'email',
    });
    const first = await recorded(business);
    const created = first.filter((e) => e.type === 'customer.created');
    expect(created.map((e) => e.payload.data.email).sort()).toEqual([
      'ada@imports.example',
      'bo@imports.example',
    ]);
    expect(created[0]!.payload.data).toMatchObject({ source: 'import', name: expect.any(String) });
    const consent = first.filter((e) => e.type === 'consent.changed');
    expect(consent).toHaveLength(2);
    expect(consent[0]!.payload.data).toMatchObject({ channel: 'email', status: 'subscribed' });

    await importFile('name,email\nAda Lovelace,ada@imports.example\n', { mode: 'overwrite' });
    const updated = (await recorded(business)).filter((e) => e.type === 'customer.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.payload.data).toMatchObject({ name: 'Ada Lovelace', email: 'ada@imports.example' });
  });

  it('records nothing for a business with no endpoint listening', async () => {
    await importFile('name,email\nCy Quiet,cy@quiet.example\n', {}, otherOwner, other);
    expect(await recorded(other)).toEqual([]);
    const customers = await rt.database.query(`select 1 from customers where business_id = $1`, [other.id]);
    expect(customers).toHaveLength(1);
  });
});
