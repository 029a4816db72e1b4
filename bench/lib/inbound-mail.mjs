// Inbound email for the benchmarks (email-inbound, email-inbound-memory): customers' mail of a 50 KB
// body and a 200 KB attachment, sent over SMTP by a pooled nodemailer client, and a Titan with its
// SMTP listener, a verified sending domain and an inbox address (authentication against a local DNS
// server, tools/dns-sim, so lookups answer at once).
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { register } from 'tsx/esm/api';
import { apiCall, authHeaders, login, signUp } from './identity.mjs';
import { freePort } from './processes.mjs';

export const SENDERS = 200;
export const CONNECTIONS = 8;
const DOMAIN = 'inbound-bench.test';
const OWNER = { email: 'inbound@bench.example.com', password: 'bench-password-123', firstName: 'Bench' };
export const MAIL_SHAPE = `50 KB + a 200 KB attachment from ${SENDERS} senders, ${CONNECTIONS} connections`;

// One body and one attachment for every mail (random bytes: they do not compress away).
const BODY = Array.from(
  { length: 800 },
  (_, i) => `Line ${i} of the customer's long message ${randomBytes(24).toString('hex')}`,
)
  .join('\n')
  .slice(0, 50 * 1024);
const ATTACHMENT = randomBytes(200 * 1024);

/** Sends `n` mails to `to` at host:port over CONNECTIONS pooled connections; answers seconds. */
export async function sendAll(port, to, n, tag) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: CONNECTIONS,
    maxMessages: Infinity,
  });
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS * 2 }, async () => {
      while (next < n) {
        const i = next++;
        const sender = `customer${i % SENDERS}@customers.example`;
        await transport.sendMail({
          from: `Customer ${i % SENDERS} <${sender}>`,
          to,
          subject: `Order question ${i % SENDERS} (${tag})`,
          messageId: `<${tag}-${i}@customers.example>`,
          text: BODY,
          attachments: [
            { filename: `photo-${i}.bin`, content: ATTACHMENT, contentType: 'application/octet-stream' },
          ],
        });
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  transport.close();
  return seconds;
}

/**
 * Titan as deployed for inbound mail (development: the bench reads the owner's confirmation from
 * the development outbox) with the business, its verified domain and its inbox address.
 */
export async function startInboundTitan(ctx, database) {
  // tools/dns-sim is TypeScript: loaded in this process through tsx.
  register();
  const { startDnsSim } = await import('@titan/dns-sim');
  const dns = await startDnsSim();
  ctx.defer(() => dns.close());
  dns.setZone(DOMAIN);
  dns.setZone('customers.example');
  dns.setRecord('customers.example', 'TXT', 'v=spf1 ip4:127.0.0.1 -all');

  const listenerPort = await freePort();
  const titan = ctx.use(
    await ctx.startTitan(database, {
      // development: the bench reads the owner's confirmation from the development outbox.
      env: {
        NODE_ENV: 'development',
        BOUNCE_SMTP_PORT: String(listenerPort),
        DNS_SERVERS: dns.address,
        RUN_WORKERS: 'true',
      },
    }),
  );
  await signUp(titan.url, OWNER);
  const { access } = await login(titan.url, OWNER.email, OWNER.password);
  const business = (
    await apiCall(titan.url, 'POST', '/api/business/', {
      body: { name: 'Bench Inbound Ltd' },
      headers: authHeaders(access),
      expect: [201],
    })
  ).result;
  const headers = authHeaders(access, business.unique_code);
  const domain = (
    await apiCall(titan.url, 'POST', '/api/email/domains/', {
      body: { domain: DOMAIN },
      headers,
      expect: [201],
    })
  ).result;
  for (const record of domain.records) dns.setRecord(record.host, record.type, record.value);
  await apiCall(titan.url, 'POST', `/api/email/domains/${domain.id}/verify/`, { headers, expect: [200] });
  const inbox = (
    await apiCall(titan.url, 'POST', '/api/email/inboxes/', {
      body: { domain_id: domain.id, local_part: 'support' },
      headers,
      expect: [201],
    })
  ).result;

  return { titan, business, inbox, listenerPort };
}

/** Problems with what Titan stored of the `tag` mails: each one message, one conversation per sender. */
export async function countInbound(database, businessId, tag, mails, notes) {
  const problems = [];
  if (database.kind !== 'postgres') {
    notes.push('PGlite: the stored-message check needs PostgreSQL and was skipped');
    return problems;
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select count(*)::int as messages, count(distinct m.conversation_id)::int as conversations
         from messages m where m.business_id = $1 and m.meta_data ->> 'message_id' like $2`,
      [businessId, `<${tag}-%`],
    );
    if (rows[0].messages !== mails) problems.push(`${rows[0].messages} messages of ${mails}`);
    if (rows[0].conversations !== Math.min(SENDERS, mails))
      problems.push(`${rows[0].conversations} conversations of ${Math.min(SENDERS, mails)}`);
  } finally {
    await client.end();
  }
  return problems;
}
