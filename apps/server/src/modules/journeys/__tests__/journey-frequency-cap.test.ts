// A journey's email send step at the marketing frequency cap's edge (issue 32), through the engine's
// real path (an event heard, the trigger passed, then the send step either as the one send step of
// its batch, or run alone after its batch failed as a whole: in neither does a batch hold the cap
// lock for it, so the step must take its own — 2b45647), on the real email channel (no workers:
// the send stays queued, which counts). Another sender (a campaign's pass, say) holds the
// customer's cap lock: it counted, recorded the customer's last marketing message of the week and
// is slow to commit. The step waits on that lock (on PostgreSQL it is seen waiting before the other
// commits), then counts the other's send and is stopped with the cap's reason: one message
// recorded, not two. Without the step's lock it would count before the other's commit, pass, and
// record a message over the cap (seen failing so on PostgreSQL). Two senders racing on the cap:
// frequency-cap.test.ts; an agent's delivery racing: agents-runs-whatsapp.test.ts.
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FREQUENCY_CAP_WORDS,
  type TBusiness,
  type TJourney,
  type TJourneyCustomerPath,
} from '@titan/contracts';
import { rowsOf } from '../../../db/sql';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { dkimKey, verifiedDomains } from '../../email/__tests__/email-helpers';
import { setSendingIdentityLookupForTests } from '../../email/sending-identity';
import { frequencyCapForRecording } from '../../sends';
import type { JourneyDeps } from '../journeys.deps';
import { drainJourneys } from '../journeys.engine';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
const key = dkimKey();
const now = new Date('2026-12-01T10:00:00Z');
const CAP = { enabled: true, max_messages: 3, period_days: 7 };

const deps = (): JourneyDeps => ({ ...rt.services.journeys, clock: () => now, wake: () => undefined });

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: as(owner, business),
    ...(payload ? { payload: payload as object } : {}),
  });

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'https://titan.example.com' } });
  app = rt.app!;
  await app.ready();
  rt.services.journeys.clock = () => now;
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Journey Cap Co');
  verifiedDomains([{ businessId: business.id, domain: 'acme.test', pem: key.pem }]);
}, 120_000);
afterAll(async () => {
  setSendingIdentityLookupForTests(null);
  await rt?.destroy();
});

describe("a journey's send step at the frequency cap's edge", () => {
  let journey: TJourney;

  beforeAll(async () => {
    expect((await api('PUT', '/api/business/frequency-cap/', CAP)).statusCode).toBe(200);
    const template = await api('POST', '/api/template/', {
      name: 'Nudge',
      subject: 'A nudge',
      format: 'html',
      content: '<p>A nudge</p>',
    });
    expect(template.statusCode, template.body).toBe(201);
    const created = await api('POST', '/api/journeys/', {
      name: 'Nudge at the edge',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'nudge.due' } },
          {
            id: 'mail',
            type: 'send',
            config: { channel: 'email', template_id: template.json().result.id, from: 'Acme <hi@acme.test>' },
          },
          { id: 'done', type: 'exit', config: {} },
        ],
        edges: [
          { from: 'start', to: 'mail' },
          { from: 'mail', to: 'done' },
        ],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    journey = created.json().result as TJourney;
    expect((await api('POST', `/api/journeys/${journey.id}/publish/`)).statusCode).toBe(200);
  });

  /**
   * A customer one marketing message below the cap enters the journey; another sender holds the
   * customer's cap lock, having recorded that last message, while the engine (`engine`) runs the
   * send step; then it commits. Only the other's message is recorded; the step is stopped.
   */
  async function raceAtTheEdge(name: string, engine: JourneyDeps): Promise<void> {
    const email = `${name.toLowerCase()}@example.test`;
    const [row] = await rt.database.query<{ id: string }>(
      `insert into customers (business_id, name, email, email_status)
       values ($1, $2, $3, 'subscribed') returning id`,
      [business.id, name, email],
    );
    const edge = Number(row!.id);
    // Two marketing messages this week: one left under the cap of 3.
    for (let i = 0; i < 2; i++)
      await rt.database.query(
        `insert into sends (business_id, channel, cause, customer_id, recipient, status, provider_request)
         values ($1, 'email', 'broadcast', $2, $3, 'delivered', '{}')`,
        [business.id, edge, email],
      );
    expect(
      (await api('POST', '/api/events/', { name: 'nudge.due', customer: { id: edge } })).statusCode,
    ).toBe(202);

    // Sender 1 (a campaign's pass, say) counts under the customer's cap lock, records the third
    // marketing message, and is slow to commit.
    let counted!: (pid: number) => void;
    const firstCounted = new Promise<number>((resolve) => (counted = resolve));
    let letGo!: () => void;
    const release = new Promise<void>((resolve) => (letGo = resolve));
    const first = rt.services.journeys.db.transaction(async (tx) => {
      const { capped } = await frequencyCapForRecording(tx, business.id, [edge], new Date());
      expect(capped.has(edge)).toBe(false);
      await tx.execute(
        sql`insert into sends (business_id, channel, cause, customer_id, recipient, status, provider_request)
            values (${business.id}, 'email', 'broadcast', ${edge}, ${email}, 'queued', '{}')`,
      );
      const [me] = await rowsOf<{ pid: number }>(tx, sql`select pg_backend_pid()::int as pid`);
      counted(me!.pid);
      await release;
    });
    const holder = await firstCounted;

    // Sender 2: the journey's pass, at the same moment.
    let drained = false;
    const second = drainJourneys(engine).finally(() => (drained = true));
    if (rt.database.kind === 'postgres') {
      // Either the step is seen waiting on the holder's advisory lock, or the drain ends without
      // ever waiting (no lock taken: it counted 2 and recorded a 4th message, failing below).
      for (;;) {
        const [w] = await rt.database.query<{ n: number }>(
          `select count(*)::int as n from pg_locks
            where locktype = 'advisory' and not granted and $1 = any(pg_blocking_pids(pid))`,
          [holder],
        );
        if (w!.n > 0 || drained) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    }
    // On PGlite (one connection) the race is moot: the drain's statements wait for the holder's
    // transaction to end anyway, so the step counts its send; the outcome must still be the same.
    letGo();
    await Promise.all([first, second]);

    // One message recorded at the edge, not two: the holder's, queued; the step sent nothing.
    const sent = await rt.database.query<{ cause: string; status: string }>(
      `select cause, status from sends where business_id = $1 and customer_id = $2 order by cause, status`,
      [business.id, edge],
    );
    expect(sent).toEqual([
      { cause: 'broadcast', status: 'delivered' },
      { cause: 'broadcast', status: 'delivered' },
      { cause: 'broadcast', status: 'queued' },
    ]);
    const path = (await api('GET', `/api/journeys/${journey.id}/customers/${edge}/`)).json()
      .result as TJourneyCustomerPath;
    const steps = path.runs[0]!.steps;
    expect(steps.map((s) => [s.node_id, s.status])).toEqual([
      ['start', 'passed'],
      ['mail', 'failed'],
      ['done', 'exited'],
    ]);
    expect(steps[1]).toMatchObject({ send_id: null, reason: FREQUENCY_CAP_WORDS.reason(3, CAP) });
  }

  it("the one send step of its batch waits on another sender's cap lock and is stopped", async () => {
    await raceAtTheEdge('Batched', deps());
  });

  it('a step run alone (its batch failed as a whole) waits on the lock too and is stopped', async () => {
    // The batch's customer lookup fails once (the send step is the first step of the drain to read
    // a customer): the batch is rolled back and its steps run one by one, each in its own
    // transaction — the path where no batch took the step's cap lock for it.
    const engine = deps();
    let lookups = 0;
    const findCustomers = engine.ports.findCustomers;
    engine.ports = {
      ...engine.ports,
      findCustomers: (db, businessId, ids) => {
        lookups++;
        if (lookups === 1) return Promise.reject(new Error('the batch lookup failed'));
        return findCustomers(db, businessId, ids);
      },
    };
    await raceAtTheEdge('Alone', engine);
    // The batch's lookup failed, then the step alone looked its customer up.
    expect(lookups).toBe(2);
  });
});
