// Agents' deliveries become sends (engage.md §5): email and SMS a batch at a time the way a
// broadcast's do, WhatsApp one by one through the spine, each under the delivery's idempotency key;
// and what a delivery would look like to its recipient (the preview).
import { type TAgentRendered, type TSendTemplateComponent } from '@titan/contracts';
import type { Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { businessScope } from '../../platform/inbox-scope';
import type { CustomerRow } from '../directory';
import type { QueuedSend } from '../sends';
import type { toTemplate } from '../whatsapp';
import type { AgentRunDeps } from './runs/deps';
import type { ChannelConfig } from './runs/prompt';
import * as agentsRepo from './agents.repository';
import * as repo from './agents.runs.repository';
import { escapeHtml } from '../../platform/html';

// ---- Deliveries become sends ----

/** A plain-text body as simple HTML: paragraphs and line breaks. */
export function htmlOfText(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
}

/** A WhatsApp template's components from the delivery's variables (by placeholder name or position). */
function componentsOf(
  template: ReturnType<typeof toTemplate>,
  variables: Record<string, unknown>,
): TSendTemplateComponent[] {
  const named = (template.parameter_format ?? '').toUpperCase() === 'NAMED';
  const params = (names: string[]) =>
    names.map((name) => ({
      type: 'text' as const,
      text: String(variables[name] ?? '').trim() || '-',
      ...(named ? { parameter_name: name } : {}),
    }));
  const out: TSendTemplateComponent[] = [];
  if (template.header_format === 'TEXT' && template.header_parameter_names.length > 0)
    out.push({ type: 'header', parameters: params(template.header_parameter_names) });
  if (template.body_parameter_names.length > 0)
    out.push({ type: 'body', parameters: params(template.body_parameter_names) });
  return out;
}

/** A WhatsApp delivery as a send (Meta is called at once); answers the send. */
/** A WhatsApp delivery the frequency cap stopped at recording, under the customer's cap lock. */
class CappedAtRecording extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

async function sendWhatsapp(
  deps: AgentRunDeps,
  run: repo.RunRow,
  d: repo.DeliveryRow,
): Promise<{ sendId: string; status: string; error: string | null }> {
  const common = {
    businessId: run.businessId,
    cause: 'agent' as const,
    causeId: run.id,
    idempotencyKey: d.idempotencyKey,
  };
  const { ports } = deps;
  // WhatsApp: the spine's idempotency key answers a send already made.
  const existing = await ports.sends.findByIdempotencyKey(deps.db, run.businessId, d.idempotencyKey);
  if (existing) return { sendId: existing.id, status: existing.status, error: existing.errorMessage };
  const [customer] = await ports.findCustomersByIds(deps.db, run.businessId, [d.customerId]);
  if (!customer) throw new AppError('not_found', 'The customer no longer exists.');
  const conversation = (await ports.lastCustomerMessagesOf(deps.db, run.businessId, [customer.id])).get(
    customer.id,
  );
  // The cap asked once more in the transaction that records the send, under the cap's lock on this
  // (business, customer), held to its commit — as every other capped sender records: two senders
  // at the cap's edge take turns, and the second counts the first's send.
  const beforeRecord = async (tx: Queryable) => {
    const { capped } = await ports.frequencyCapForRecording(tx, run.businessId, [customer.id], new Date());
    const hit = capped.get(customer.id);
    if (hit) throw new CappedAtRecording(hit.reason);
  };
  const origin = { ...common, customerId: customer.id, beforeRecord };
  const scope = businessScope(run.businessId);
  if (d.templateId !== null) {
    const row = await ports.whatsapp.findTemplate(deps.db, run.businessId, d.templateId);
    if (!row) throw new AppError('not_found', 'The WhatsApp template no longer exists.');
    const phone = ports.e164Of(customer.phone);
    await ports.whatsapp.sendTemplate(
      deps.whatsapp,
      { scope, userId: null },
      {
        ...(conversation ? { conversation_id: conversation.conversationId } : { to: phone ?? '' }),
        name: row.name,
        language: row.language,
        components: componentsOf(ports.whatsapp.toTemplate(row), d.variables),
      },
      origin,
    );
  } else {
    if (!conversation)
      throw new AppError('conflict', 'The customer has no WhatsApp conversation to write in.');
    await ports.whatsapp.sendMessage(
      deps.whatsapp,
      scope,
      null,
      conversation.conversationId,
      { type: 'text', text: { body: d.body ?? '' }, recipient_type: 'individual' },
      origin,
    );
  }
  const sent = await ports.sends.findByIdempotencyKey(deps.db, run.businessId, d.idempotencyKey);
  if (!sent) throw new Error('the WhatsApp send was not recorded');
  return { sendId: sent.id, status: sent.status, error: sent.errorMessage };
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

const FAILED_SEND = new Set(['failed', 'bounced', 'complained', 'cancelled']);

function failureWords(err: unknown): string {
  const fields =
    err instanceof AppError && err.result && typeof err.result === 'object'
      ? Object.values(err.result as Record<string, unknown>).flatMap((v) =>
          Array.isArray(v) ? v.map(String) : [],
        )
      : [];
  return [messageOf(err), ...fields.filter((f) => f !== messageOf(err))].join(' ');
}

type Outcome = Parameters<typeof repo.setDeliveryOutcomes>[1][number];

const customerVars = (c: CustomerRow) => ({
  ...c.fields,
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  external_id: c.externalId,
});

/**
 * A batch of email or SMS deliveries become sends the way a broadcast's do: the channel's context
 * (sender, template) made once, each message built, the suppression list asked once, the sends and
 * the deliveries' outcomes written in one transaction (a send already recorded under the same
 * idempotency key is answered, never made twice), then the queued sends handed to the channel's job.
 */
async function deliverBatch(
  deps: AgentRunDeps,
  run: repo.RunRow,
  channel: ChannelConfig,
  batch: repo.DeliveryRow[],
  contexts: Map<string, Promise<unknown>>,
): Promise<void> {
  const businessId = run.businessId;
  const { ports } = deps;
  const cached = <T>(key: string, make: () => Promise<T>): Promise<T> => {
    let p = contexts.get(key) as Promise<T> | undefined;
    if (!p) {
      p = make();
      p.catch(() => undefined);
      contexts.set(key, p);
    }
    return p;
  };
  const customers = new Map(
    (await ports.findCustomersByIds(deps.db, businessId, [...new Set(batch.map((d) => d.customerId))])).map(
      (c) => [c.id, c],
    ),
  );
  const outcomes: Outcome[] = [];
  const built: { d: repo.DeliveryRow; send: QueuedSend & { id: string; idempotencyKey: string } }[] = [];
  for (const d of batch) {
    const c = customers.get(d.customerId);
    if (!c) {
      outcomes.push({ id: d.id, status: 'failed', sendId: null, reason: 'The customer no longer exists.' });
      continue;
    }
    const common = { businessId, cause: 'agent' as const, causeId: run.id, idempotencyKey: d.idempotencyKey };
    try {
      if (d.channel === 'sms') {
        const ctx = await cached('sms', () => ports.sms.smsContext(deps.sms, { businessId }));
        const number = ports.e164Of(c.phone);
        if (!number) throw new AppError('bad_request', ports.sms.errors.badCustomerPhone);
        const send = ports.sms.buildSmsSend(
          ctx,
          { ...common, body: d.body ?? '' },
          { number, customerId: c.id, customer: customerVars(c) },
        );
        built.push({ d, send: { ...send, idempotencyKey: d.idempotencyKey } });
      } else {
        const template = d.templateId !== null ? { id: d.templateId, variables: d.variables } : undefined;
        const ctx = await cached(`email:${d.templateId ?? ''}`, () =>
          ports.email.sendContext(deps.email, {
            businessId,
            from: channel.from,
            ...(template ? { template } : {}),
          }),
        );
        const address = c.email?.trim();
        if (!address) throw new AppError('bad_request', ports.email.errors.noCustomerEmail);
        const send = ports.email.buildSend(
          deps.email,
          ctx,
          {
            ...common,
            ...(template
              ? { template }
              : { subject: d.subject ?? '', html: htmlOfText(d.body ?? ''), text: d.body ?? '' }),
            unsubscribeFooter: true,
          },
          { address, customerId: c.id, customer: customerVars(c) },
        );
        built.push({ d, send: { ...send, idempotencyKey: d.idempotencyKey } });
      }
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      outcomes.push({ id: d.id, status: 'failed', sendId: null, reason: failureWords(err) });
    }
  }
  const sendChannel = run.channel === 'sms' ? 'sms' : 'email';
  const suppressed = await ports.suppressedAmong(
    deps.db,
    businessId,
    sendChannel,
    built.map((b) => b.send.recipient),
  );
  const suppressedWords =
    sendChannel === 'sms' ? ports.sms.errors.suppressed() : ports.email.errors.suppressed();
  const rows = built.map((b) =>
    suppressed.has(ports.normalizeAddress(b.send.recipient))
      ? { ...b.send, status: 'suppressed' as const, errorMessage: suppressedWords }
      : { ...b.send, status: 'queued' as const },
  );
  const queued: string[] = [];
  await deps.db.transaction(async (tx) => {
    // The business's frequency cap, asked again now that the delivery is recorded — an approved
    // delivery may come days after its run was decided — under the cap's per-customer locks (held
    // to this commit, so another sender cannot pass the same customer at the edge meanwhile). A
    // delivery whose send was recorded before (a retried batch) answers that send, never the cap.
    const { capped } = await ports.frequencyCapForRecording(
      tx,
      businessId,
      rows.filter((r) => r.status === 'queued').map((r) => r.customerId!),
      new Date(),
    );
    const stopped = new Map<number, string>();
    for (const [i, row] of rows.entries()) {
      const hit = row.status === 'queued' ? capped.get(row.customerId!) : undefined;
      if (hit && !(await ports.sends.findByIdempotencyKey(tx, businessId, row.idempotencyKey)))
        stopped.set(i, hit.reason);
    }
    const recording = rows.filter((_, i) => !stopped.has(i));
    const written = new Set((await ports.sends.createMany(tx, recording)).map((w) => w.id));
    for (const [i, row] of rows.entries()) {
      const d = built[i]!.d;
      const capReason = stopped.get(i);
      if (capReason !== undefined) {
        outcomes.push({ id: d.id, status: 'suppressed', sendId: null, reason: capReason });
        continue;
      }
      if (written.has(row.id)) {
        if (row.status === 'queued') queued.push(row.id);
        outcomes.push({
          id: d.id,
          status: row.status === 'queued' ? 'sent' : 'suppressed',
          sendId: row.id,
          reason: row.status === 'queued' ? null : suppressedWords,
        });
        continue;
      }
      // Recorded before (a worker died after the sends, before their deliveries said so).
      const existing = await ports.sends.findByIdempotencyKey(tx, businessId, row.idempotencyKey);
      outcomes.push({
        id: d.id,
        status: !existing
          ? 'failed'
          : existing.status === 'suppressed'
            ? 'suppressed'
            : FAILED_SEND.has(existing.status)
              ? 'failed'
              : 'sent',
        sendId: existing?.id ?? null,
        reason: existing?.errorMessage ?? (existing ? null : 'The send could not be recorded.'),
      });
    }
    await repo.setDeliveryOutcomes(tx, outcomes);
  });
  if (queued.length > 0)
    await (sendChannel === 'sms'
      ? ports.sms.enqueue(deps.jobs, queued)
      : ports.email.enqueue(deps.jobs, queued));
}

/** Sends a run's planned and approved deliveries; each records its send, or why it failed. */
export async function deliverPlanned(
  deps: AgentRunDeps,
  run: repo.RunRow,
  channel: ChannelConfig,
): Promise<number> {
  let n = 0;
  const contexts = new Map<string, Promise<unknown>>();
  for (;;) {
    const batch = await repo.deliveriesToSend(deps.db, run.id, 100);
    if (batch.length === 0) return n;
    n += batch.length;
    if (run.channel !== 'whatsapp') {
      await deliverBatch(deps, run, channel, batch, contexts);
      continue;
    }
    for (const d of batch) {
      try {
        // The cap asked again at delivery (an approval may come days later): here first, so a
        // capped customer reads so whatever else stands in the way; then again under the cap's
        // lock in the transaction that records the send (sendWhatsapp's beforeRecord).
        if (!(await deps.ports.sends.findByIdempotencyKey(deps.db, run.businessId, d.idempotencyKey))) {
          const { capped } = await deps.ports.frequencyCapped(
            deps.db,
            run.businessId,
            [d.customerId],
            new Date(),
          );
          const hit = capped.get(d.customerId);
          if (hit) {
            await repo.setDeliveryOutcome(deps.db, d.id, { status: 'suppressed', reason: hit.reason });
            continue;
          }
        }
        const send = await sendWhatsapp(deps, run, d);
        await repo.setDeliveryOutcome(deps.db, d.id, {
          status:
            send.status === 'suppressed' ? 'suppressed' : FAILED_SEND.has(send.status) ? 'failed' : 'sent',
          sendId: send.sendId,
          ...(send.error ? { reason: send.error } : {}),
        });
      } catch (err) {
        if (err instanceof CappedAtRecording) {
          await repo.setDeliveryOutcome(deps.db, d.id, { status: 'suppressed', reason: err.reason });
          continue;
        }
        if (!(err instanceof AppError))
          deps.logger.error({ err, delivery_id: d.id }, 'agent delivery failed');
        await repo.setDeliveryOutcome(deps.db, d.id, { status: 'failed', reason: failureWords(err) });
      }
    }
  }
}

/** The `agents.deliver` job: sends what was approved in a run. */
export async function deliverRun(deps: AgentRunDeps, runId: string): Promise<number> {
  const run = await repo.findRunById(deps.db, runId);
  if (!run) return 0;
  const [version] = (await agentsRepo.findConfigVersions(deps.db, run.businessId, [run.agentId])).filter(
    (v) => v.version === run.configVersion,
  );
  const channel = version?.config.channels.find((c) => c.channel === run.channel) ?? { channel: run.channel };
  return deliverPlanned(deps, run, channel);
}

export async function render(
  deps: AgentRunDeps,
  businessId: number,
  businessName: string,
  customer: CustomerRow | undefined,
  d: repo.DeliveryRow,
): Promise<TAgentRendered | null> {
  if (d.status !== 'dry_run' && d.status !== 'planned' && d.status !== 'pending_approval') return null;
  const { email, whatsapp } = deps.ports;
  try {
    if (d.channel === 'whatsapp' && d.templateId !== null) {
      const row = await whatsapp.findTemplate(deps.db, businessId, d.templateId);
      if (!row) return { subject: null, text: '(the WhatsApp template no longer exists)', html: null };
      return {
        subject: null,
        text: whatsapp.renderTemplate(row, componentsOf(whatsapp.toTemplate(row), d.variables)).content,
        html: null,
      };
    }
    if (d.channel === 'email' && d.templateId !== null) {
      const template = await email.loadCompiledTemplate(deps.db, businessId, d.templateId);
      if (!template) return { subject: null, text: '(the template no longer exists)', html: null };
      const mail = email.renderCompiled(template, {
        customer: customer
          ? {
              ...customer.fields,
              id: customer.id,
              name: customer.name,
              email: customer.email,
              phone: customer.phone,
            }
          : {},
        business: { name: businessName },
        unsubscribe_url: '#unsubscribe',
        ...d.variables,
      });
      const shown = email.withUnsubscribeFooter(
        { text: mail.text || email.textOf(mail.html), html: mail.html },
        '#unsubscribe',
      );
      return { subject: mail.subject, ...shown };
    }
    if (d.channel === 'email' && d.body) {
      const mail = email.withUnsubscribeFooter({ text: d.body, html: htmlOfText(d.body) }, '#unsubscribe');
      return { subject: d.subject, ...mail };
    }
    return { subject: d.channel === 'email' ? d.subject : null, text: d.body, html: null };
  } catch (err) {
    return { subject: null, text: `(it cannot be rendered: ${messageOf(err)})`, html: null };
  }
}

/**
 * A dry run on up to 20 recipients (the audience's first, or the customers named), decided now
 * and recorded as a run (trigger preview): what would be sent to whom, rendered.
 */
