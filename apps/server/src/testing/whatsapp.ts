// A WhatsApp test bench: the Cloud API simulator playing Meta, Titan listening on a port with its
// Graph URL pointed at the simulator, and a business whose number is connected to it.
import { expect } from 'vitest';
import { startWhatsappCloudSim, type SimOptions, type WhatsappCloudSim } from '@titan/whatsapp-cloud-sim';
import type { TBusiness } from '@titan/contracts';
import { as, createBusiness, signUp, type Session } from './identity';
import { createTestRuntime, type TestRuntime, type TestRuntimeOptions } from './test-runtime';

export type WhatsappBench = {
  sim: WhatsappCloudSim;
  rt: TestRuntime;
  /** Titan's address, e.g. http://127.0.0.1:40123 */
  base: string;
  owner: Session;
  business: TBusiness;
  account: { phone_number_id: string; waba_id: string; access_token: string; app_secret: string };
  close(): Promise<void>;
};

export type Reply<T = unknown> = { status: number; body: { status: number; message: string; result: T } };

let benches = 0;

export async function startWhatsappBench(
  options: {
    businessName?: string;
    env?: Record<string, string>;
    onRoute?: TestRuntimeOptions['onRoute'];
  } & Partial<Pick<SimOptions, 'templates' | 'statusDelayMs'>> = {},
): Promise<WhatsappBench> {
  const n = String(++benches).padStart(3, '0');
  const account = {
    phone_number_id: `1065403522${n}`,
    waba_id: `1022901293${n}`,
    display_phone_number: `+1 555 0${n}`,
    verify_token: `verify-token-${n}-please`,
    access_token: `EAAG-simulated-access-token-${n}-0123456789`,
    app_secret: `sim-app-secret-${n}-0123456789abcdef`,
  };
  const sim = await startWhatsappCloudSim({
    accessToken: account.access_token,
    appSecret: account.app_secret,
    phoneNumberId: account.phone_number_id,
    wabaId: account.waba_id,
    displayPhoneNumber: account.display_phone_number,
    statusDelayMs: options.statusDelayMs ?? 5,
    ...(options.templates ? { templates: options.templates } : {}),
  });
  const rt = await createTestRuntime({
    workers: true,
    env: { WHATSAPP_GRAPH_URL: sim.graphUrl, WHATSAPP_RETRY_DELAYS_MS: '10', ...options.env },
    onRoute: options.onRoute,
  });
  await rt.app!.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(rt.app!.server.address() as { port: number }).port}`;
  sim.setWebhookUrl(`${base}/api/whatsapp/webhook/`);
  const owner = await signUp(rt.app!, rt.mailer);
  const business = await createBusiness(rt.app!, owner, options.businessName ?? 'WhatsApp Co');
  const res = await rt.app!.inject({
    method: 'PUT',
    url: '/api/whatsapp/account/',
    headers: as(owner, business),
    payload: account,
  });
  expect(res.statusCode).toBe(200);
  return {
    sim,
    rt,
    base,
    owner,
    business,
    account,
    async close() {
      await sim.close();
      await rt.destroy();
    },
  };
}

/** One API call over HTTP as `who` in `inBusiness`; answers the status and the envelope. */
export async function callAs<T = unknown>(
  base: string,
  method: string,
  path: string,
  who: Session,
  inBusiness: TBusiness,
  payload?: unknown,
): Promise<Reply<T>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...as(who, inBusiness),
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return { status: res.status, body: (await res.json()) as Reply<T>['body'] };
}
