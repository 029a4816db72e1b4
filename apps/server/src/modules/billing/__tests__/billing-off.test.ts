// Without CHARGEBEE_SITE billing is off (self-hosting): nothing is refused, usage is still counted,
// Chargebee's routes say billing is not configured, and the webhook does not exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { BILLING_ERRORS, type TBusiness } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import * as sends from '../../sends/sends.service';

let rt: TestRuntime;
let owner: Session;
let business: TBusiness;

beforeAll(async () => {
  rt = await createTestRuntime();
  owner = await signUp(rt.app!, rt.mailer);
  business = await createBusiness(rt.app!, owner, 'Self-hosted');
}, 120_000);
afterAll(async () => rt?.destroy());

const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  rt.app!.inject({ method, url, headers: as(owner, business), ...(payload ? { payload } : {}) });

describe('billing off', () => {
  it('queues sends for a business with no subscription, without limit, and counts them', async () => {
    for (let i = 0; i < 3; i++) {
      const { row } = await sends.recordOnce(
        rt.database.db,
        {
          businessId: business.id,
          channel: 'whatsapp',
          cause: 'test',
          recipient: `1555000${i}`,
          providerRequest: {},
        },
        null,
      );
      expect(row.status).toBe('queued');
    }
    const res = await call('GET', '/api/chargebee/subscription/');
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toMatchObject({
      enabled: false,
      status: 'inactive',
      can_send: true,
      top_ups: [],
    });
    expect(res.json().result.usage.find((u: { channel: string }) => u.channel === 'whatsapp')).toMatchObject({
      reserved: 3,
      quota: null,
      remaining: null,
    });
  });

  it('answers whatsapp_count per billing period: what last month accepted is not this month’s', async () => {
    const db = rt.database.db;
    await db.execute(
      sql`update billing_usage set accepted = 3 where business_id = ${business.id} and channel = 'whatsapp'`,
    );
    expect((await call('GET', '/api/business/')).json().result).toMatchObject({
      whatsapp_count: 3,
      sms_count: 0,
    });
    await db.execute(
      sql`update billing_usage set period_start = period_start - interval '1 month' where business_id = ${business.id}`,
    );
    expect((await call('GET', '/api/business/')).json().result.whatsapp_count).toBe(0);
    const usage = (await call('GET', '/api/chargebee/subscription/')).json().result.usage;
    expect(usage.find((u: { channel: string }) => u.channel === 'whatsapp')).toMatchObject({
      used: 0,
      reserved: 0,
    });
  });

  it('answers 409 saying billing is not configured for hosted pages and charges', async () => {
    for (const [url, body] of [
      ['/api/chargebee/portal-session/', undefined],
      ['/api/chargebee/pricing-page-session/', undefined],
      ['/api/chargebee/charge/', { top_up: 'sms-500-USD' }],
    ] as const) {
      const res = await call('POST', url, body);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().message).toBe(BILLING_ERRORS.off);
    }
  });

  it('has no webhook', async () => {
    const res = await rt.app!.inject({
      method: 'POST',
      url: '/api/chargebee/webhook/',
      headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
      payload: { id: 'ev_1', event_type: 'subscription_created', content: {} },
    });
    expect(res.statusCode).toBe(404);
  });
});
