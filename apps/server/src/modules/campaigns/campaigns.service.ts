// Campaigns: CRUD of drafts, the audience (lists and segments, exclusions) counted live with the
// suppressed and those without consent apart, the checklist before sending, test sends, and the
// state changes (schedule, pause, resume, cancel). The sending itself is campaigns.runner.ts.
import type { Logger } from 'pino';
import {
  CAMPAIGN_ERRORS,
  marketingConsentAllows,
  type TCampaign,
  type TCampaignAudience,
  type TCampaignAudienceCount,
  type TCampaignChannel,
  type TCampaignChecklist,
  type TCampaignContent,
  type TCreateCampaignRequest,
} from '@titan/contracts';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { assertRoomFor } from '../billing';
import { type BroadcastDeps, stopCampaignBroadcast } from '../broadcasts';
import { businessTimeZone } from '../business';
import { listExists, walkListCustomers } from '../customer-lists';
import { type CustomerRow, findCustomerById } from '../directory';
import { buildSend, type EmailDeps, enqueueEmailSends, sendContext } from '../email';
import { customersOutOfTopic, topicExists } from '../consent';
import { defaultSenderOf } from '../email-domains';
import * as sends from '../sends';
import { buildSmsSend, e164Of, enqueueSmsSends, type SmsDeps, smsContext } from '../sms';
import { normalizeAddress, suppressedAmong } from '../suppressions';
import {
  assertWhatsappConnected,
  checkCampaignTemplate,
  testSendCampaignTemplate,
  type WhatsappDeps,
} from '../whatsapp';
import { recordEvent, type WebhookEvent } from '../webhooks';
import * as repo from './campaigns.repository';
import { checkSchedule, startOf } from './campaigns.schedule';

export type CampaignDeps = {
  db: Db;
  jobs: Jobs;
  logger: Logger;
  broadcasts: BroadcastDeps;
  email: EmailDeps;
  sms: SmsDeps;
  whatsapp: WhatsappDeps;
  /** Now; tests pass a clock they move. */
  clock: () => Date;
  /** Recipients per batch (one transaction each); 200 unless set. */
  batchSize?: number;
};

export const RUN_QUEUE = 'campaigns.run';

/** A campaign's webhook event (`campaign.started`, `campaign.finished`): flat, as webhooks want. */
export function campaignEvent(
  type: 'campaign.started' | 'campaign.finished',
  row: repo.CampaignRow,
  counts?: { total: number; recorded: number; skipped?: number },
): WebhookEvent {
  return {
    businessId: row.businessId,
    type,
    objectKey: `campaign:${row.id}`,
    at: (type === 'campaign.started' ? row.startedAt : row.finishedAt) ?? undefined,
    data: {
      id: row.id,
      name: row.name,
      channel: row.channel,
      status: row.status,
      topic_id: row.topicId,
      ...(counts ? { recipients: counts.total, processed: counts.recorded + (counts.skipped ?? 0) } : {}),
      skipped_reasons: row.skippedReasons,
      started_at: row.startedAt?.toISOString() ?? null,
      finished_at: row.finishedAt?.toISOString() ?? null,
    },
  };
}

export function toCampaign(
  row: repo.CampaignRow,
  counts?: { total: number; recorded: number; skipped?: number },
): TCampaign {
  return {
    id: row.id,
    name: row.name,
    channel: row.channel,
    status: row.status,
    audience: row.audience,
    content: row.content,
    sender: row.sender,
    schedule: row.schedule,
    throttle_per_hour: row.throttlePerHour,
    ab: row.ab,
    winner: row.winner,
    recipients: counts?.total ?? 0,
    // Recipients the sender is done with: their send recorded, or skipped (the frequency cap).
    processed: (counts?.recorded ?? 0) + (counts?.skipped ?? 0),
    skipped_reasons: row.skippedReasons,
    scheduled_at: row.scheduledAt?.toISOString() ?? null,
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function withCounts(db: Queryable, row: repo.CampaignRow): Promise<TCampaign> {
  return toCampaign(row, row.preparedAt ? await repo.recipientCounts(db, row.id) : undefined);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function mustFind(db: Queryable, businessId: number, id: string): Promise<repo.CampaignRow> {
  const row = UUID.test(id) ? await repo.findCampaign(db, businessId, id) : null;
  if (!row) throw AppError.notFound(CAMPAIGN_ERRORS.notFound);
  return row;
}

// ---- What a campaign is made of ----

/** 400 with the field when the content does not fit the channel (or an A/B variant does not). */
function checkContent(
  channel: TCampaignChannel,
  content: TCampaignContent,
  ab: TCreateCampaignRequest['ab'],
) {
  const fits =
    channel === 'email'
      ? content.template_id !== undefined || (!!content.subject && (!!content.html || !!content.text))
      : channel === 'sms'
        ? content.template_id !== undefined || !!content.body?.trim()
        : !!content.whatsapp_template;
  if (!fits) throw AppError.fields({ content: [CAMPAIGN_ERRORS.noContent] });
  const foreign =
    channel === 'email'
      ? content.body !== undefined || content.whatsapp_template !== undefined
      : channel === 'sms'
        ? content.subject !== undefined ||
          content.html !== undefined ||
          content.whatsapp_template !== undefined
        : content.template_id !== undefined || content.html !== undefined || content.body !== undefined;
  if (foreign) throw AppError.fields({ content: [CAMPAIGN_ERRORS.channelContent(channel)] });
  ab?.variants.forEach((v, i) => {
    if (content.template_id !== undefined && v.subject !== undefined && v.template_id === undefined)
      throw AppError.fields({
        [`ab.variants.${i}.subject`]: ['A template sets its own subject; vary the template instead.'],
      });
  });
}

async function checkAudience(db: Queryable, businessId: number, audience: TCampaignAudience) {
  const errors: Record<string, string[]> = {};
  for (const key of ['list_ids', 'segment_ids', 'exclude_list_ids'] as const)
    for (const [i, id] of audience[key].entries())
      if (!(await listExists(db, businessId, id)))
        errors[`audience.${key}.${i}`] = [CAMPAIGN_ERRORS.listNotFound];
  if (audience.topic_id && !(await topicExists(db, businessId, audience.topic_id)))
    errors['audience.topic_id'] = [CAMPAIGN_ERRORS.topicNotFound];
  if (Object.keys(errors).length) throw AppError.fields(errors);
}

function valuesOf(input: TCreateCampaignRequest) {
  return {
    name: input.name,
    channel: input.channel,
    audience: input.audience,
    content: input.content,
    sender: input.sender ?? null,
    schedule: input.schedule,
    throttlePerHour: input.throttle_per_hour ?? null,
    ab: input.ab ?? null,
    topicId: input.audience.topic_id ?? null,
  };
}

export async function createCampaign(
  deps: CampaignDeps,
  businessId: number,
  createdBy: number | null,
  input: TCreateCampaignRequest,
): Promise<TCampaign> {
  checkContent(input.channel, input.content, input.ab);
  await checkAudience(deps.db, businessId, input.audience);
  const row = await repo.insertCampaign(deps.db, {
    businessId,
    createdBy,
    status: 'draft',
    ...valuesOf(input),
  });
  return toCampaign(row);
}

export async function updateCampaign(
  deps: CampaignDeps,
  businessId: number,
  id: string,
  input: TCreateCampaignRequest,
): Promise<TCampaign> {
  await mustFind(deps.db, businessId, id);
  checkContent(input.channel, input.content, input.ab);
  await checkAudience(deps.db, businessId, input.audience);
  const row = await repo.updateWhen(deps.db, id, ['draft'], valuesOf(input));
  if (!row) throw new AppError('conflict', CAMPAIGN_ERRORS.notDraft);
  return toCampaign(row);
}

export async function deleteCampaign(deps: CampaignDeps, businessId: number, id: string): Promise<void> {
  await mustFind(deps.db, businessId, id);
  if (!(await repo.deleteDraft(deps.db, businessId, id)))
    throw new AppError('conflict', CAMPAIGN_ERRORS.notDeletable);
}

export async function findCampaign(deps: CampaignDeps, businessId: number, id: string): Promise<TCampaign> {
  return withCounts(deps.db, await mustFind(deps.db, businessId, id));
}

export async function findCampaigns(
  deps: CampaignDeps,
  businessId: number,
  query: { page: number; page_size: number; status?: repo.CampaignRow['status']; search?: string },
) {
  const { rows, count } = await repo.listCampaigns(
    deps.db,
    businessId,
    { status: query.status, search: query.search || undefined },
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: await Promise.all(rows.map((r) => withCounts(deps.db, r))),
  };
}

// ---- The audience ----

/**
 * The audience's customers, `batchSize` at a time: every list and segment walked in turn, each
 * customer once, none of the excluded lists' customers.
 */
export async function* audienceBatches(
  db: Queryable,
  businessId: number,
  audience: TCampaignAudience,
  batchSize = 1000,
): AsyncGenerator<CustomerRow[]> {
  const excluded = new Set<number>();
  for (const id of audience.exclude_list_ids)
    for await (const batch of walkListCustomers(db, businessId, id, { batchSize }))
      for (const c of batch) excluded.add(c.id);
  const seen = new Set<number>();
  for (const id of [...audience.list_ids, ...audience.segment_ids])
    for await (const batch of walkListCustomers(db, businessId, id, { batchSize })) {
      const fresh = batch.filter((c) => !excluded.has(c.id) && !seen.has(c.id));
      for (const c of fresh) seen.add(c.id);
      if (fresh.length > 0) yield fresh;
    }
}

/** A customer's address on the channel (email, or the number in E.164), or null. */
export function addressOf(channel: TCampaignChannel, c: CustomerRow): string | null {
  if (channel === 'email') return c.email?.trim() || null;
  return e164Of(c.phone);
}

const consentOf = (channel: TCampaignChannel, c: CustomerRow) =>
  channel === 'email' ? c.emailStatus : channel === 'sms' ? c.smsStatus : c.whatsappStatus;

/** Sorts one batch into reachable, suppressed, without consent, out of the topic, without an address. */
export async function sortBatch(
  db: Queryable,
  businessId: number,
  channel: TCampaignChannel,
  customers: CustomerRow[],
  topicId?: number | null,
): Promise<{
  reachable: CustomerRow[];
  suppressed: number;
  noConsent: number;
  outOfTopic: number;
  noAddress: number;
}> {
  const addressed = customers.flatMap((c) => {
    const address = addressOf(channel, c);
    return address ? [{ c, address }] : [];
  });
  const suppressed = await suppressedAmong(
    db,
    businessId,
    channel,
    addressed.map((a) => a.address),
  );
  const left = topicId
    ? await customersOutOfTopic(
        db,
        topicId,
        addressed.map((a) => a.c.id),
      )
    : new Set<number>();
  const out = {
    reachable: [] as CustomerRow[],
    suppressed: 0,
    noConsent: 0,
    outOfTopic: 0,
    noAddress: customers.length - addressed.length,
  };
  for (const { c, address } of addressed) {
    if (suppressed.has(normalizeAddress(address))) out.suppressed++;
    else if (!marketingConsentAllows('subscribed', consentOf(channel, c))) out.noConsent++;
    else if (left.has(c.id)) out.outOfTopic++;
    else out.reachable.push(c);
  }
  return out;
}

/** The audience counted as chosen: who it reaches, and the suppressed, without consent, without an address apart. */
export async function countAudience(
  db: Queryable,
  businessId: number,
  channel: TCampaignChannel,
  audience: TCampaignAudience,
): Promise<TCampaignAudienceCount> {
  await checkAudience(db, businessId, audience);
  const total = { total: 0, reachable: 0, suppressed: 0, no_consent: 0, no_address: 0, out_of_topic: 0 };
  for await (const batch of audienceBatches(db, businessId, audience)) {
    const sorted = await sortBatch(db, businessId, channel, batch, audience.topic_id);
    total.total += batch.length;
    total.reachable += sorted.reachable.length;
    total.suppressed += sorted.suppressed;
    total.no_consent += sorted.noConsent;
    total.no_address += sorted.noAddress;
    total.out_of_topic += sorted.outOfTopic;
  }
  return total;
}

// ---- Sender, checklist ----

/** The From of an email campaign: its own, else the business's default sender. */
export async function senderOf(deps: CampaignDeps, row: repo.CampaignRow): Promise<string | null> {
  return row.sender ?? (await defaultSenderOf(deps.db, row.businessId));
}

/** What each variant's sends are made of, as the channel's broadcast keeps it. */
export function requestOf(
  row: repo.CampaignRow,
  variant: number,
  from: string | null,
): Record<string, unknown> {
  const content = { ...row.content, ...(row.ab?.variants[variant] ?? {}) };
  const common = {
    template_id: content.template_id,
    variables: content.variables,
    consent: 'subscribed',
    topic_id: row.topicId,
  };
  if (row.channel === 'email')
    return { ...common, from, subject: content.subject, html: content.html, text: content.text };
  if (row.channel === 'sms') return { ...common, body: content.body };
  return { whatsapp_template: content.whatsapp_template, consent: 'subscribed' };
}

const hasUnsubscribe = (html: string | undefined) => !html || /unsubscribe_url|unsubscribe/i.test(html);

/** The checklist before sending: each item with why not; `ready` when all hold. */
export async function checklist(
  deps: CampaignDeps,
  businessId: number,
  id: string,
): Promise<TCampaignChecklist> {
  const row = await mustFind(deps.db, businessId, id);
  const items: TCampaignChecklist['items'] = [];
  const audience = await countAudience(deps.db, businessId, row.channel, row.audience);
  const empty = row.audience.list_ids.length + row.audience.segment_ids.length === 0;
  items.push({
    key: 'audience',
    ok: audience.reachable > 0,
    detail:
      audience.reachable > 0 ? null : empty ? CAMPAIGN_ERRORS.noAudience : CAMPAIGN_ERRORS.emptyAudience,
  });
  if (row.channel === 'email') {
    const from = await senderOf(deps, row);
    items.push({ key: 'sender', ok: from !== null, detail: from ? null : CAMPAIGN_ERRORS.noSender });
    if (from) {
      let problem: string | null = null;
      try {
        await sendContext(deps.email, { businessId, from });
      } catch (err) {
        if (!(err instanceof AppError) || err.code === 'internal') throw err;
        problem = err.message;
      }
      items.push({ key: 'domain_verified', ok: problem === null, detail: problem });
    }
    // Every campaign mail gets the unsubscribe link in its footer (and List-Unsubscribe); a
    // template that places its own link keeps its layout.
    // Content without its own link is fine (the footer adds it); the item says so.
    items.push({
      key: 'unsubscribe',
      ok: true,
      detail: hasUnsubscribe(row.content.html) ? null : CAMPAIGN_ERRORS.noUnsubscribe,
    });
  }
  let estimatedCost: TCampaignChecklist['estimated_cost'] = null;
  if (row.channel === 'whatsapp' && row.content.whatsapp_template) {
    const { problems, template } = await checkCampaignTemplate(
      deps.db,
      businessId,
      row.content.whatsapp_template,
    );
    items.push({ key: 'content', ok: problems.length === 0, detail: problems.join(' ') || null });
    let notConnected: string | null = null;
    try {
      await assertWhatsappConnected(deps.whatsapp, businessId);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'conflict') throw err;
      notConnected = err.message;
    }
    items.push({ key: 'sender', ok: notConnected === null, detail: notConnected });
    // Meta prices by category and the recipient's country; Titan shows the category it will be billed as.
    if (template)
      estimatedCost = { category: template.category, per_message: null, total: null, currency: 'USD' };
  }
  let quota: string | null = null;
  try {
    await assertRoomFor(deps.db, businessId, row.channel, audience.reachable);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'payment_required') throw err;
    const dialog = (err.result as { dialog?: { title: string; description: string } } | null)?.dialog;
    quota = dialog ? `${dialog.title}. ${dialog.description}` : err.message;
  }
  items.push({ key: 'quota', ok: quota === null, detail: quota });
  return { ready: items.every((i) => i.ok), items, audience, estimated_cost: estimatedCost };
}

// ---- Test sends ----

type SendRowInput = Parameters<typeof sends.createMany>[1][number];

/** Sends the campaign (variant 0, or each variant) to staff addresses or numbers, cause `test`. */
export async function testSend(
  deps: CampaignDeps,
  businessId: number,
  id: string,
  input: { to: string[]; customer_id?: number },
  createdBy: number | null,
): Promise<{ send_ids: string[] }> {
  const row = await mustFind(deps.db, businessId, id);
  const preview = input.customer_id ? await findCustomerById(deps.db, businessId, input.customer_id) : null;
  if (input.customer_id && !preview) throw AppError.fields({ customer_id: ['No such customer.'] });
  const customerOf = (address: string) =>
    preview
      ? { ...preview.fields, id: preview.id, name: preview.name, email: preview.email, phone: preview.phone }
      : row.channel === 'email'
        ? { email: address, name: 'Test recipient' }
        : { phone: address, name: 'Test recipient' };
  const variants = row.ab ? row.ab.variants.map((_, i) => i) : [0];
  if (row.channel === 'email') {
    const from = await senderOf(deps, row);
    if (!from) throw AppError.fields({ sender: [CAMPAIGN_ERRORS.noSender] });
    const bad = input.to.findIndex((a) => !/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(a));
    if (bad >= 0) throw AppError.fields({ [`to.${bad}`]: ['Not a valid email address.'] });
    const rows: SendRowInput[] = [];
    for (const v of variants) {
      const request = requestOf(row, v, from) as {
        from: string;
        template_id?: number;
        variables?: Record<string, unknown>;
        subject?: string;
        html?: string;
        text?: string;
      };
      const template = request.template_id
        ? { id: request.template_id, variables: request.variables }
        : undefined;
      const ctx = await sendContext(deps.email, { businessId, from, template });
      for (const to of input.to) {
        const send = buildSend(
          deps.email,
          ctx,
          {
            businessId,
            template,
            subject: request.subject ? `[Test] ${request.subject}` : undefined,
            html: request.html,
            text: request.text,
            cause: 'test',
            causeId: row.id,
            createdBy,
            unsubscribeFooter: true,
            topicId: row.topicId,
          },
          { address: to, customerId: null, customer: customerOf(to) },
        );
        rows.push({ ...send, status: 'queued' as const });
      }
    }
    const written = await deps.db.transaction((tx) => sends.createMany(tx, rows));
    const ids = written.map((w) => w.id);
    await enqueueEmailSends(deps.jobs, ids);
    return { send_ids: ids };
  }
  if (row.channel === 'sms') {
    const numbers = input.to.map((to, i) => {
      const n = e164Of(to);
      if (!n)
        throw AppError.fields({ [`to.${i}`]: ['A number in international format, like +14155550100.'] });
      return n;
    });
    const rows: SendRowInput[] = [];
    for (const v of variants) {
      const request = requestOf(row, v, null) as {
        template_id?: number;
        variables?: Record<string, unknown>;
        body?: string;
      };
      const template = request.template_id
        ? { id: request.template_id, variables: request.variables }
        : undefined;
      const ctx = await smsContext(deps.sms, { businessId, template });
      for (const number of numbers) {
        const send = buildSmsSend(
          ctx,
          { businessId, body: request.body, template, cause: 'test', causeId: row.id, createdBy },
          { number, customerId: null, customer: customerOf(number) },
        );
        rows.push({ ...send, status: 'queued' as const });
      }
    }
    const written = await deps.db.transaction((tx) => sends.createMany(tx, rows));
    const ids = written.map((w) => w.id);
    await enqueueSmsSends(deps.jobs, ids);
    return { send_ids: ids };
  }
  const numbers = input.to.map((to, i) => {
    const n = e164Of(to);
    if (!n) throw AppError.fields({ [`to.${i}`]: ['A number in international format, like +14155550100.'] });
    return n;
  });
  await assertWhatsappConnected(deps.whatsapp, businessId);
  const ids = await testSendCampaignTemplate(deps.whatsapp, {
    businessId,
    campaignId: row.id,
    content: row.content.whatsapp_template!,
    to: numbers,
    preview,
    createdBy,
  });
  return { send_ids: ids };
}

// ---- State changes ----

/**
 * Starts a draft per its schedule: the checklist must hold (400 on the audience or sender, 409 on
 * an unverified domain, 402 with the billing words when the quota is short); then the sender runs.
 */
export async function scheduleCampaign(
  deps: CampaignDeps,
  businessId: number,
  id: string,
): Promise<TCampaign> {
  const row = await mustFind(deps.db, businessId, id);
  if (row.status !== 'draft') throw new AppError('conflict', CAMPAIGN_ERRORS.notSchedulable);
  const now = deps.clock();
  const zone = await businessTimeZone(deps.db, businessId);
  checkSchedule(row.schedule, zone, now);
  const audience = await countAudience(deps.db, businessId, row.channel, row.audience);
  if (row.audience.list_ids.length + row.audience.segment_ids.length === 0)
    throw AppError.fields({ 'audience.list_ids': [CAMPAIGN_ERRORS.noAudience] });
  if (audience.reachable === 0) throw AppError.fields({ audience: [CAMPAIGN_ERRORS.emptyAudience] });
  if (row.channel === 'email') {
    const from = await senderOf(deps, row);
    if (!from) throw AppError.fields({ sender: [CAMPAIGN_ERRORS.noSender] });
    await sendContext(deps.email, { businessId, from }); // 409 on an unverified domain
  } else if (row.channel === 'sms') {
    await smsContext(deps.sms, { businessId }); // 409 without an SMS account
  } else {
    const { problems } = await checkCampaignTemplate(deps.db, businessId, row.content.whatsapp_template!);
    if (problems.length > 0) throw AppError.fields({ 'content.whatsapp_template': problems });
    await assertWhatsappConnected(deps.whatsapp, businessId); // 409 without a connected number
  }
  await assertRoomFor(deps.db, businessId, row.channel, audience.reachable); // the 402 words
  const scheduledAt = startOf(row.schedule, zone, now);
  const moved = await repo.updateWhen(deps.db, id, ['draft'], {
    status: 'scheduled',
    scheduledAt,
    heartbeatAt: now,
  });
  if (!moved) throw new AppError('conflict', CAMPAIGN_ERRORS.notSchedulable);
  await wake(deps, id);
  return withCounts(deps.db, moved);
}

/** Asks the sender to look at a campaign now. */
export async function wake(deps: Pick<CampaignDeps, 'jobs'>, id: string): Promise<void> {
  await deps.jobs.send(RUN_QUEUE, { campaign_id: id }, { singletonKey: id });
}

/**
 * Closes the campaign's open broadcasts, cancelling their sends no sender has taken yet (never
 * sent) and making those recipients due again — in one transaction.
 */
async function closeBroadcasts(
  deps: CampaignDeps,
  row: repo.CampaignRow,
  status: 'paused' | 'cancelled',
  from: repo.CampaignRow['status'][],
  extra: Partial<repo.NewCampaign> = {},
): Promise<repo.CampaignRow | null> {
  return deps.db.transaction(async (tx) => {
    const moved = await repo.updateWhen(tx, row.id, from, {
      status,
      broadcasts: row.broadcasts.map((b) => ({ ...b, open: false })),
      ...extra,
    });
    if (!moved) return null;
    // A cancelled campaign that had been scheduled has ended: subscribers hear it with what was recorded.
    if (status === 'cancelled' && row.status !== 'draft')
      await recordEvent(
        tx,
        campaignEvent('campaign.finished', moved, await repo.recipientCounts(tx, row.id)),
      );
    for (const b of row.broadcasts.filter((x) => x.open)) {
      const cancelled = await stopCampaignBroadcast(
        tx,
        row.businessId,
        b.id,
        status === 'paused' ? 'done' : 'cancelled',
      );
      if (status === 'paused') await repo.backToPending(tx, row.id, cancelled);
    }
    return moved;
  });
}

/** Pauses: no further batch is recorded, and sends not yet taken by a sender are held back. */
export async function pauseCampaign(deps: CampaignDeps, businessId: number, id: string): Promise<TCampaign> {
  const row = await mustFind(deps.db, businessId, id);
  if (row.status !== 'scheduled' && row.status !== 'sending')
    throw new AppError('conflict', CAMPAIGN_ERRORS.notPausable);
  const moved = await closeBroadcasts(deps, row, 'paused', ['scheduled', 'sending']);
  if (!moved) throw new AppError('conflict', CAMPAIGN_ERRORS.notPausable);
  return withCounts(deps.db, moved);
}

/** Resumes a paused campaign: new broadcasts take the recipients still due; nobody is sent twice. */
export async function resumeCampaign(deps: CampaignDeps, businessId: number, id: string): Promise<TCampaign> {
  const row = await mustFind(deps.db, businessId, id);
  if (row.status !== 'paused') throw new AppError('conflict', CAMPAIGN_ERRORS.notResumable);
  const status = row.startedAt ? 'sending' : 'scheduled';
  const moved = await repo.updateWhen(deps.db, id, ['paused'], { status, heartbeatAt: deps.clock() });
  if (!moved) throw new AppError('conflict', CAMPAIGN_ERRORS.notResumable);
  await wake(deps, id);
  return withCounts(deps.db, moved);
}

/** Cancels: nothing more is sent; what was sent stays in the results. */
export async function cancelCampaign(deps: CampaignDeps, businessId: number, id: string): Promise<TCampaign> {
  const row = await mustFind(deps.db, businessId, id);
  if (!['draft', 'scheduled', 'sending', 'paused'].includes(row.status))
    throw new AppError('conflict', CAMPAIGN_ERRORS.notCancellable);
  const moved = await closeBroadcasts(deps, row, 'cancelled', ['draft', 'scheduled', 'sending', 'paused'], {
    finishedAt: deps.clock(),
  });
  if (!moved) throw new AppError('conflict', CAMPAIGN_ERRORS.notCancellable);
  return withCounts(deps.db, moved);
}
