// One page of a run: the next customers of the audience, their guardrail facts, their decisions
// (a few at once) and the page written in one transaction with the cursor.
import type { TAgentChannel, TSegmentFilter } from '@titan/contracts';
import type { CustomerRow } from '../../directory';
import { customerTimezone, type RecipientFacts } from '../agents.guardrails';
import * as repo from '../agents.runs.repository';
import type { AgentRunDeps, AgentRunPorts } from './deps';
import { type DeliveryDraft, type RunContext, type StepDraft, keyOf } from './prompt';
import { decide } from './decide';

// ---- The audience ----

/**
 * The next `limit` customers of the audience after customer id `after`, in id order: the union of
 * the lists, narrowed by the segment (or the segment alone). `last` is where the next page starts
 * (the segment may leave a page with fewer customers than it covered). A one-customer run's
 * audience is its customer alone.
 */
export async function audiencePage(
  ctx: Pick<RunContext, 'deps' | 'run' | 'config' | 'lists'>,
  after: number,
  limit: number,
): Promise<{ customers: CustomerRow[]; last: number | null }> {
  const { db, ports } = ctx.deps;
  const businessId = ctx.run.businessId;
  // A one-customer run (a journey's agent step): that customer is the whole audience.
  const only = ctx.run.customerId;
  if (only !== null) {
    if (after >= only) return { customers: [], last: null };
    return { customers: await ports.findCustomersByIds(db, businessId, [only]), last: only };
  }
  const segment = ctx.config.audience.segment as TSegmentFilter | undefined;
  if (ctx.lists.length === 0) {
    const customers = await ports.segmentCustomers(db, businessId, segment ?? {}, after, limit);
    return { customers, last: customers.at(-1)?.id ?? null };
  }
  const ids = new Set<number>();
  for (const list of ctx.lists) {
    const some =
      list.kind === 'static'
        ? await list.memberIdsAfter(after, limit)
        : (await ports.segmentCustomers(db, businessId, list.filter, after, limit)).map((c) => c.id);
    for (const id of some) ids.add(id);
  }
  const page = [...ids].sort((a, b) => a - b).slice(0, limit);
  if (page.length === 0) return { customers: [], last: null };
  const customers = segment
    ? await ports.segmentCustomersAmong(db, businessId, segment, page)
    : await ports.findCustomersByIds(db, businessId, page);
  return { customers, last: page.at(-1)! };
}

function addressOf(ports: AgentRunPorts, channel: TAgentChannel, c: CustomerRow): string | null {
  if (channel === 'email') return c.email?.trim() || null;
  return ports.e164Of(c.phone);
}

/** The guardrails' facts for a page of recipients, in a few queries. */
async function factsFor(
  ctx: RunContext,
  customers: CustomerRow[],
  now: Date,
): Promise<Map<number, RecipientFacts>> {
  const { db, ports } = ctx.deps;
  const channel = ctx.run.channel;
  const businessId = ctx.run.businessId;
  const ids = customers.map((c) => c.id);
  const addresses = customers.map((c) => addressOf(ports, channel, c));
  const [suppressed, recent, capped, whatsapp] = await Promise.all([
    ports.suppressedAmong(
      db,
      businessId,
      channel,
      addresses.filter((a): a is string => a !== null),
    ),
    repo.recentDeliveryCounts(db, businessId, ids, new Date(now.getTime() - 7 * 24 * 60 * 60 * 1000)),
    ports.frequencyCapped(db, businessId, ids, now),
    channel === 'whatsapp' ? ports.lastCustomerMessagesOf(db, businessId, ids) : Promise.resolve(new Map()),
  ]);
  const facts = new Map<number, RecipientFacts>();
  customers.forEach((customer, i) => {
    const address = addresses[i]!;
    const wa = whatsapp.get(customer.id) as { conversationId: number; at: Date } | undefined;
    facts.set(customer.id, {
      customer,
      address,
      suppressed: address !== null && suppressed.has(address.trim().toLowerCase()),
      recentDeliveries: recent.get(customer.id) ?? 0,
      frequencyCap: capped.capped.get(customer.id) ?? null,
      timezone: customerTimezone(customer) ?? ctx.businessTz,
      whatsapp: wa
        ? {
            conversationId: wa.conversationId,
            windowOpen: wa.at.getTime() + ports.whatsappWindowMs > now.getTime(),
          }
        : null,
    });
  });
  return facts;
}

/** Runs `fn` over `items`, `limit` at a time, answers in the items' order. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Decides a page of recipients: their deliveries and steps (in recipient order). */
export async function decidePage(
  ctx: RunContext,
  customers: CustomerRow[],
): Promise<{ deliveries: DeliveryDraft[]; steps: StepDraft[] }> {
  const now = new Date();
  const facts = await factsFor(ctx, customers, now);
  const results = await pool(customers, ctx.deps.concurrency ?? 8, async (c) => {
    const steps: StepDraft[] = [];
    if (ctx.state.stopped) return { delivery: null, steps };
    const delivery = await decide(ctx, facts.get(c.id)!, now, steps);
    return { delivery, steps };
  });
  return {
    deliveries: results.flatMap((r) => (r.delivery ? [r.delivery] : [])),
    steps: results.flatMap((r) => r.steps),
  };
}

function costOf(price: AgentRunDeps['price'], prompt: number, completion: number): number | null {
  if (!price) return null;
  return (prompt * price.prompt + completion * price.completion) / 1_000_000;
}

/**
 * Writes a page in one transaction: its deliveries (a key already written is left alone), its
 * steps (numbered after the run's last), the cursor, the recipients considered and the tokens.
 */
export async function writePage(
  ctx: RunContext,
  page: { deliveries: DeliveryDraft[]; steps: StepDraft[]; cursor: number | null; considered: number },
  seq: { next: number },
  leaseUntil: Date | null,
): Promise<repo.RunRow> {
  const run = ctx.run;
  const prompt = ctx.state.promptTokens;
  const completion = ctx.state.completionTokens;
  ctx.state.promptTokens = 0;
  ctx.state.completionTokens = 0;
  return ctx.deps.db.transaction(async (tx) => {
    await repo.insertDeliveries(
      tx,
      page.deliveries.map((d) => ({
        runId: run.id,
        agentId: run.agentId,
        businessId: run.businessId,
        channel: run.channel,
        customerId: d.customerId,
        status: d.status,
        reason: d.reason,
        guardrail: d.guardrail,
        templateId: d.templateId,
        variables: d.variables,
        subject: d.subject,
        body: d.body,
        idempotencyKey: keyOf(run, d.customerId),
      })),
    );
    await repo.insertSteps(
      tx,
      page.steps.map((s) => ({
        runId: run.id,
        businessId: run.businessId,
        seq: seq.next++,
        kind: s.kind,
        name: s.name,
        customerId: s.customer_id,
        input: s.input ?? null,
        output: s.output ?? null,
        durationMs: s.duration_ms,
        tokens: s.tokens,
      })),
    );
    const current = (await repo.findRunById(tx, run.id))!;
    const counts = { ...current.counts, considered: (current.counts.considered ?? 0) + page.considered };
    const promptTokens = current.promptTokens + prompt;
    const completionTokens = current.completionTokens + completion;
    const updated = await repo.updateRun(tx, run.id, {
      ...(page.cursor !== null ? { cursor: page.cursor } : {}),
      counts,
      addPromptTokens: prompt,
      addCompletionTokens: completion,
      cost: costOf(ctx.deps.price, promptTokens, completionTokens),
      ...(leaseUntil ? { lockedUntil: leaseUntil } : {}),
    });
    return updated!;
  });
}
