// A customer's export and erase (GDPR articles 15 and 17): the export holds what Titan keeps on
// them; after the erase no row of any table names them (every text and JSON column of every table
// is searched for their email, phone and name), another business cannot reach either, the erase
// is in the audit trail, and their address stays suppressed (hashed) so they are never mailed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { insertSend } from '../../sends/sends.repository';
import { isSuppressed } from '../../suppressions/suppressions.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: Session;
let otherBusiness: TBusiness;

const EMAIL = 'zelda.quixote@example.test';
const PHONE = '+14155550199';
const NAME = 'Zelda Quixotevanhorn';

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Erase Co');
  other = await signUp(app, rt.mailer);
  otherBusiness = await createBusiness(app, other, 'Elsewhere');
});
afterAll(() => rt.destroy());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, s = owner, b = business) =>
  app.inject({ method, url, headers: as(s, b), ...(payload ? { payload } : {}) });

/** Every (table, column) of text or JSON whose value contains one of the needles. */
async function rowsNaming(needles: string[]): Promise<string[]> {
  const columns = await rt.database.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'jsonb', 'json', 'character varying', 'ARRAY')
       and table_name not like '\\_\\_%'`,
  );
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const [row] = await rt.database.query<{ n: number }>(
        `select count(*)::int as n from "${table_name}" where strpos(lower("${column_name}"::text), $1) > 0`,
        [needle.toLowerCase()],
      );
      if (row!.n > 0) found.push(`${table_name}.${column_name} ~ ${needle}`);
    }
  }
  return found;
}

describe('a customer’s export and erase', () => {
  let id: number;

  beforeAll(async () => {
    // A visitor who chatted, was given consent by staff (an audit entry with their values), was
    // mailed (a send with an event) and chose topics.
    expect((await call('POST', '/api/msg/chat-groups/', { name: 'Help', slug: 'help' })).statusCode).toBe(
      201,
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: {
        business_code: business.unique_code,
        group_slug: 'help',
        name: NAME,
        email: EMAIL,
        phone: PHONE,
      },
    });
    expect(res.statusCode).toBe(201);
    id = res.json().result.customer.id;
    const token = res.json().result.token as string;
    const headers = { authorization: `Visitor ${token}` };
    const conv = await app.inject({
      method: 'POST',
      url: '/api/public/conversations/',
      headers,
      payload: { group_slug: 'help', title: 'Question' },
    });
    expect(conv.statusCode, conv.body).toBe(201);
    const said = await app.inject({
      method: 'POST',
      url: `/api/public/conversations/${conv.json().result.id}/messages/`,
      headers,
      payload: { message_type: 'text', content: `Hello, I am ${NAME}, write to ${EMAIL}` },
    });
    expect(said.statusCode).toBe(201);
    const put = await call('PUT', `/api/business/customer-directory/${id}/`, {
      email_status: 'subscribed',
      name: `${NAME}`,
      fields: { note: `call ${PHONE}` },
    });
    expect(put.statusCode).toBe(200);
    await insertSend(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      cause: 'broadcast',
      customerId: id,
      recipient: EMAIL,
      subject: `Hi ${NAME}`,
      status: 'sent',
    });
    // What other areas keep of them: a failed import row, an agent's decision about them (its
    // model step saw them), and mail to them in the development outbox.
    const q = rt.database.query.bind(rt.database);
    const [imp] = await q<{ id: string }>(
      `insert into customer_imports (business_id, file_key, file_name, mode, encoding, columns, status)
       values ($1, 'k', 'people.csv', 'skip', 'utf-8', '[]', 'done') returning id`,
      [business.id],
    );
    await q(
      `insert into customer_import_errors (import_id, row_number, reason, values) values ($1, 2, 'Invalid phone', $2)`,
      [imp!.id, JSON.stringify([NAME, EMAIL, 'not a phone'])],
    );
    const [agent] = await q<{ id: number }>(
      `insert into agents (business_id, name) values ($1, 'Win-back') returning id`,
      [business.id],
    );
    const [run] = await q<{ id: string }>(
      `insert into agent_runs (agent_id, business_id, channel, slot, trigger, config_version, send_mode)
       values ($1, $2, 'email', now(), 'manual', 1, 'dry_run') returning id`,
      [agent!.id, business.id],
    );
    await q(
      `insert into agent_deliveries (run_id, agent_id, business_id, channel, customer_id, status, reason, idempotency_key)
       values ($1, $2, $3, 'email', $4, 'dry_run', $5, 'k-1')`,
      [run!.id, agent!.id, business.id, id, `Write to ${NAME}`],
    );
    await q(
      `insert into agent_run_steps (run_id, business_id, seq, kind, name, customer_id, input)
       values ($1, $2, 1, 'llm', 'titan-sim-1', null, $3)`,
      [run!.id, business.id, JSON.stringify({ customer: { email: EMAIL } })],
    );
    await q(
      `insert into agent_run_steps (run_id, business_id, seq, kind, name, customer_id, input)
       values ($1, $2, 2, 'llm', 'titan-sim-1', null, $3)`,
      [run!.id, business.id, JSON.stringify({ customer: { email: 'someone.else@example.test' } })],
    );
    await q(`insert into dev_outbox ("to", subject, text, html) values ($1, 'Hi', 'Hello', '<p>Hello</p>')`, [
      EMAIL,
    ]);
    expect(await rowsNaming([EMAIL])).not.toEqual([]);
  });

  it('another business can neither export nor erase the customer (404)', async () => {
    expect(
      (await call('GET', `/api/business/customer-directory/${id}/export/`, undefined, other, otherBusiness))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/api/business/customer-directory/${id}/erase/`, undefined, other, otherBusiness))
        .statusCode,
    ).toBe(404);
  });

  it('exports everything held: profile, consent history, conversations and messages, sends', async () => {
    const res = await call('GET', `/api/business/customer-directory/${id}/export/`);
    expect(res.statusCode).toBe(200);
    const data = res.json().result;
    expect(data.profile).toMatchObject({
      id,
      name: NAME,
      email: EMAIL,
      phone: PHONE,
      email_status: 'subscribed',
    });
    expect(data.conversations).toHaveLength(1);
    expect(JSON.stringify(data.conversations[0].messages)).toContain(`I am ${NAME}`);
    expect(data.sends).toEqual([
      expect.objectContaining({ send: expect.objectContaining({ recipient: EMAIL }) }),
    ]);
    expect(Array.isArray(data.consent_history)).toBe(true);
  });

  it('erase leaves no row naming them, logs the erase, and keeps them suppressed (hashed)', async () => {
    const res = await call('POST', `/api/business/customer-directory/${id}/erase/`);
    expect(res.statusCode).toBe(202);
    expect((await call('GET', `/api/business/customer-directory/${id}/`)).statusCode).toBe(404);
    expect((await call('GET', `/api/business/customer-directory/${id}/export/`)).statusCode).toBe(404);
    expect((await call('POST', `/api/business/customer-directory/${id}/erase/`)).statusCode).toBe(404);

    expect(await rowsNaming([EMAIL, PHONE, NAME])).toEqual([]);
    // The run stays, with the step about someone else.
    const steps = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from agent_run_steps where business_id = $1`,
      [business.id],
    );
    expect(steps[0]!.n).toBe(1);

    const audit = (await call('GET', '/api/audit-log/?page_size=100')).json().result;
    const entries = (audit.results ?? audit) as { action: string; object_id: string | null }[];
    expect(entries).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'customer.erased', object_id: String(id) })]),
    );

    // Never mailed or texted again: the suppressions still hold, by hash.
    expect(await isSuppressed(rt.database.db, business.id, 'email', EMAIL)).toBe(true);
    expect(await isSuppressed(rt.database.db, business.id, 'sms', PHONE)).toBe(true);
    expect(await isSuppressed(rt.database.db, otherBusiness.id, 'email', EMAIL)).toBe(false);
    // Coming back as a new visitor, they take over the suppression.
    const again = await app.inject({
      method: 'POST',
      url: '/api/public/customers/',
      payload: { business_code: business.unique_code, name: 'Z', email: EMAIL },
    });
    const back = await call('GET', `/api/business/customer-directory/${again.json().result.customer.id}/`);
    expect(back.json().result.email_status).toBe('unsubscribed');
  });
});
