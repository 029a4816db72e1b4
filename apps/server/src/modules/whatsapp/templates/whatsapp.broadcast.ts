// WhatsApp template campaigns: the broadcast channel that turns each batch of customers into
// recorded template sends — an approved template, its variables filled per recipient from their
// fields, only to customers with WhatsApp consent and not suppressed, with the broadcast's
// idempotency keys — then hands them to the `whatsapp.send` job, which claims each and calls Meta
// (the send spine: recorded before the call, never sent twice). Quiet hours are the campaign's
// (its recipients' due times). A customer a variable has no value for is passed over, counted.
import type { TCampaignContent, TSendTemplateComponent, TTemplateParameter } from '@titan/contracts';
import type { Db } from '../../../db/client';
import { advisoryLock } from '../../../db/sql';
import { type BroadcastChannel, broadcastSendKey, consentSkipOf, sharedPerBroadcast } from '../../broadcasts';
import * as conversations from '../../conversations';
import type { CustomerRow } from '../../directory';
import * as directory from '../../directory';
import * as sends from '../../sends';
import { normalizeAddress, suppressedAmong } from '../../suppressions';
import { connectedAccount, SEND_QUEUE, type WhatsappDeps } from '../messages/whatsapp.outbound';
import * as templatesRepo from './whatsapp.templates.repository';
import * as mediaRepo from '../media/whatsapp.media.repository';
import { contactLockKey, waExternalId } from '../wa-id';
import { AppError } from '../../../platform/errors';
import { checkParameters, parametersOf, renderTemplate, sendTemplate } from './whatsapp.templates';

type TemplateContent = NonNullable<TCampaignContent['whatsapp_template']>;

/** What a WhatsApp campaign's broadcast keeps as its request. */
export type WhatsappBroadcastRequest = {
  whatsapp_template: TemplateContent;
  consent?: 'subscribed';
};

export const WHATSAPP_CAMPAIGN_ERRORS = {
  unknown: (name: string, language: string) =>
    `No WhatsApp template “${name}” in ${language}. Sync templates in Settings → WhatsApp and choose one.`,
  notApproved: (status: string) => `Only templates Meta approved can be sent; this one is ${status}.`,
  location: 'Templates with a location header cannot be sent in campaigns.',
  headerMedia: (format: string) =>
    `This template's header is ${article(format)} ${format.toLowerCase()}: give its link or upload the file.`,
  headerMediaType: (format: string, given: string) =>
    `This template's header is ${article(format)} ${format.toLowerCase()}, not ${article(given)} ${given.toLowerCase()}.`,
  headerMediaUnknown: 'The uploaded header file is not one of this business’s uploads; upload it again.',
  variable: (key: string) =>
    `Give template variable {{${key}}} a value: a customer field (customer.name, fields.plan) or text.`,
} as const;

export const WHATSAPP_SKIP_REASONS = {
  noPhone: 'no phone number',
  missingValue: 'a template variable had no value',
} as const;

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** The keys a campaign's variables map must give: body's by name or number, header's and URL buttons' prefixed. */
function variableKeys(template: templatesRepo.WhatsappTemplateRow) {
  const p = parametersOf(template.components as Parameters<typeof parametersOf>[0]);
  return {
    headerFormat: p.headerFormat,
    body: p.body,
    header: p.headerFormat === 'TEXT' ? p.header : [],
    buttons: p.buttons.map((b) => b.index),
  };
}

/**
 * What stops a campaign's template from being sent, in words a marketer can act on (empty when
 * nothing): not synced, not approved, a media header, a variable without a value. With the template.
 */
export async function checkCampaignTemplate(
  db: Db,
  businessId: number,
  content: TemplateContent,
): Promise<{ problems: string[]; template: templatesRepo.WhatsappTemplateRow | null }> {
  const template = await templatesRepo.findTemplate(db, businessId, content.name, content.language);
  if (!template)
    return { problems: [WHATSAPP_CAMPAIGN_ERRORS.unknown(content.name, content.language)], template: null };
  const problems: string[] = [];
  if (template.status !== 'APPROVED') problems.push(WHATSAPP_CAMPAIGN_ERRORS.notApproved(template.status));
  const keys = variableKeys(template);
  const format = keys.headerFormat;
  if (format === 'LOCATION') problems.push(WHATSAPP_CAMPAIGN_ERRORS.location);
  else if (format !== null && format !== 'TEXT') {
    const media = content.header_media;
    if (!media) problems.push(WHATSAPP_CAMPAIGN_ERRORS.headerMedia(format));
    else if (media.type.toUpperCase() !== format)
      problems.push(WHATSAPP_CAMPAIGN_ERRORS.headerMediaType(format, media.type));
    else if (media.id && !(await mediaRepo.findBusinessMedia(db, businessId, media.id)))
      problems.push(WHATSAPP_CAMPAIGN_ERRORS.headerMediaUnknown);
  }
  const given = content.variables;
  for (const k of keys.body)
    if (!given[k]?.trim() && !given[`body.${k}`]?.trim()) problems.push(WHATSAPP_CAMPAIGN_ERRORS.variable(k));
  for (const k of keys.header)
    if (!given[`header.${k}`]?.trim()) problems.push(WHATSAPP_CAMPAIGN_ERRORS.variable(`header.${k}`));
  for (const i of keys.buttons)
    if (!given[`button.${i}`]?.trim()) problems.push(WHATSAPP_CAMPAIGN_ERRORS.variable(`button.${i}`));
  return { problems, template };
}

/** The business's WhatsApp number is connected (409 with the words otherwise). */
export async function assertWhatsappConnected(
  deps: Pick<WhatsappDeps, 'db' | 'secrets'>,
  businessId: number,
) {
  await connectedAccount(deps, businessId);
}

/**
 * A variable's value for one customer: `customer.name|email|phone|<field>` or `fields.<field>`
 * read from the customer, anything else as written. Empty when the customer has no such value.
 */
export function valueFor(spec: string, customer: CustomerRow): string {
  const m = /^\s*(customer|fields)\.([\w-]+)\s*$/.exec(spec);
  if (!m) return spec;
  const [, scope, key] = m;
  const own: Record<string, unknown> = { name: customer.name, email: customer.email, phone: customer.phone };
  const v = scope === 'customer' && key! in own ? own[key!] : customer.fields?.[key!];
  return v === null || v === undefined ? '' : String(v).trim();
}

/** A media header's parameter as Graph takes it (`{type: "image", image: {link}}`), or null. */
function headerMediaParameter(
  template: templatesRepo.WhatsappTemplateRow,
  media: TemplateContent['header_media'],
): TTemplateParameter | null {
  const format = variableKeys(template).headerFormat;
  if (!media || !format || media.type.toUpperCase() !== format) return null;
  const source = media.id ? { id: media.id } : { link: media.link! };
  if (media.type === 'document')
    return {
      type: 'document',
      document: { ...source, ...(media.filename ? { filename: media.filename } : {}) },
    };
  return media.type === 'image' ? { type: 'image', image: source } : { type: 'video', video: source };
}

/**
 * The send's components for one customer, or null when a variable has no value for them: the
 * header (its text placeholders, or the campaign's media), the body, the URL buttons.
 */
export function componentsFor(
  template: templatesRepo.WhatsappTemplateRow,
  content: Pick<TemplateContent, 'variables' | 'header_media'>,
  customer: CustomerRow,
): TSendTemplateComponent[] | null {
  const { variables } = content;
  const keys = variableKeys(template);
  const named = (template.parameterFormat ?? '').toUpperCase() === 'NAMED';
  const text = (name: string, spec: string | undefined): TTemplateParameter | null => {
    const value = spec ? valueFor(spec, customer) : '';
    if (!value) return null;
    return named && !/^\d+$/.test(name)
      ? { type: 'text', parameter_name: name, text: value }
      : { type: 'text', text: value };
  };
  const out: TSendTemplateComponent[] = [];
  const media = headerMediaParameter(template, content.header_media);
  if (media) out.push({ type: 'header', parameters: [media] });
  for (const [part, names] of [
    ['header', keys.header],
    ['body', keys.body],
  ] as const) {
    if (names.length === 0) continue;
    const params: TTemplateParameter[] = [];
    for (const n of names) {
      const p = text(
        n,
        part === 'body' ? (variables[n] ?? variables[`body.${n}`]) : variables[`header.${n}`],
      );
      if (!p) return null;
      params.push(p);
    }
    out.push({ type: part, parameters: params } as TSendTemplateComponent);
  }
  for (const index of keys.buttons) {
    const p = text(String(index), variables[`button.${index}`]);
    if (!p) return null;
    out.push({ type: 'button', sub_type: 'url', index, parameters: [p] } as TSendTemplateComponent);
  }
  return out;
}

/**
 * Test sends of a campaign's template to staff numbers: each variable filled from the preview
 * customer (or, without one, shown as the field it names, e.g. [customer.name]). Answers the send ids.
 */
export async function testSendCampaignTemplate(
  deps: WhatsappDeps,
  input: {
    businessId: number;
    campaignId: string;
    content: TemplateContent;
    to: string[];
    preview: CustomerRow | null;
    createdBy: number | null;
  },
): Promise<string[]> {
  const { problems, template } = await checkCampaignTemplate(deps.db, input.businessId, input.content);
  if (!template || problems.length > 0) throw AppError.fields({ 'content.whatsapp_template': problems });
  const stand = (spec: string) => (/^\s*(customer|fields)\./.test(spec) ? `[${spec.trim()}]` : spec);
  const variables = input.preview
    ? input.content.variables
    : Object.fromEntries(Object.entries(input.content.variables).map(([k, v]) => [k, stand(v)]));
  const customer =
    input.preview ?? ({ name: null, email: null, phone: null, fields: {} } as unknown as CustomerRow);
  const components = componentsFor(template, { ...input.content, variables }, customer);
  if (!components)
    throw AppError.fields({ customer_id: ['This customer has no value for a template variable.'] });
  const ids: string[] = [];
  for (const to of input.to) {
    const key = `campaign-test:${input.campaignId}:${crypto.randomUUID()}`;
    await sendTemplate(
      deps,
      { scope: { businessId: input.businessId, groupIds: null }, userId: input.createdBy },
      { to, name: template.name, language: template.language, components },
      { cause: 'test', causeId: input.campaignId, idempotencyKey: key },
    );
    const send = await sends.findByIdempotencyKey(deps.db, input.businessId, key);
    if (send) ids.push(send.id);
  }
  return ids;
}

/** The Graph body's `template` for one send (as whatsapp.templates sends it: button index a string). */
export function graphTemplate(template: templatesRepo.WhatsappTemplateRow, given: TSendTemplateComponent[]) {
  const components = given.map((c) => ({
    type: c.type,
    ...(c.type === 'button' ? { sub_type: c.sub_type, index: String(c.index) } : {}),
    parameters: c.parameters,
  }));
  return {
    name: template.name,
    language: { code: template.language },
    ...(components.length > 0 ? { components } : {}),
  };
}

/** The WhatsApp conversation a campaign's message to this number goes into (the one replies thread into). */
export async function conversationFor(
  tx: Parameters<BroadcastChannel['queueBatch']>[0],
  businessId: number,
  customer: CustomerRow,
  digits: string,
): Promise<number> {
  // The same lock as receiving: a reply arriving meanwhile never opens a second conversation.
  await advisoryLock(tx, contactLockKey(businessId, digits));
  const contact =
    (await directory.findCustomerByExternalId(tx, businessId, waExternalId(digits))) ?? customer;
  const existing = await conversations.findLatestConversationOf(tx, businessId, 'whatsapp', contact.id);
  if (existing) return existing.id;
  const created = await conversations.openConversation(tx, {
    businessId,
    channel: 'whatsapp',
    initiatorId: contact.id,
    title: contact.name ? `WhatsApp with ${contact.name}` : `WhatsApp +${digits}`,
  });
  return created.id;
}

export function whatsappBroadcastChannel(deps: WhatsappDeps): BroadcastChannel {
  const templateOf = sharedPerBroadcast(async (broadcast) => {
    const request = broadcast.request as WhatsappBroadcastRequest;
    await connectedAccount(deps, broadcast.businessId);
    const { problems, template } = await checkCampaignTemplate(
      deps.db,
      broadcast.businessId,
      request.whatsapp_template,
    );
    if (!template || problems.length > 0) throw new Error(problems.join(' '));
    return template;
  });
  return {
    async prepare(broadcast) {
      await templateOf(broadcast);
    },
    async queueBatch(tx, broadcast, customers) {
      const request = broadcast.request as WhatsappBroadcastRequest;
      const template = await templateOf(broadcast);
      const withPhone = customers.flatMap((c) => {
        const digits = (c.phone ?? '').replace(/\D/g, '');
        return digits.length >= 6 && digits.length <= 15 ? [{ c, digits }] : [];
      });
      const suppressed = await suppressedAmong(
        tx,
        broadcast.businessId,
        'whatsapp',
        withPhone.map((w) => `+${w.digits}`),
      );
      const skipped: Record<string, number> = {
        [WHATSAPP_SKIP_REASONS.noPhone]: customers.length - withPhone.length,
      };
      const skip = (reason: string) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
      type Row = Parameters<typeof sends.createMany>[1][number];
      const rows: Row[] = [];
      for (const { c, digits } of withPhone) {
        const isSuppressed = suppressed.has(normalizeAddress(`+${digits}`));
        const consent = isSuppressed ? null : consentSkipOf(broadcast, c.whatsappStatus);
        if (consent) {
          skip(consent);
          continue;
        }
        const components = componentsFor(template, request.whatsapp_template, c);
        if (!components || checkParameters(template, components).length > 0) {
          skip(WHATSAPP_SKIP_REASONS.missingValue);
          continue;
        }
        const rendered = renderTemplate(template, components);
        const payload = { type: 'template', template: graphTemplate(template, components) };
        const base: Row = {
          id: crypto.randomUUID(),
          businessId: broadcast.businessId,
          channel: 'whatsapp',
          cause: 'broadcast',
          causeId: broadcast.id,
          customerId: c.id,
          recipient: digits,
          templateName: template.name,
          idempotencyKey: broadcastSendKey(broadcast.id, c.id),
          createdBy: broadcast.createdBy,
          providerRequest: { to: digits, ...payload },
          status: 'queued',
        };
        if (isSuppressed) {
          rows.push({
            ...base,
            status: 'suppressed',
            errorMessage: 'This number opted out of WhatsApp messages.',
          });
          continue;
        }
        rows.push({
          ...base,
          conversationId: await conversationFor(tx, broadcast.businessId, c, digits),
          message: {
            content: rendered.content,
            message_type: 'text',
            sender_type: 'system',
            sender_id: null,
            meta_data: { ...payload, template: rendered.template },
          },
        });
      }
      const written = await sends.createMany(tx, rows);
      return { sendIds: written.filter((s) => s.status === 'queued').map((s) => s.id), skipped };
    },
    async dispatch(sendIds) {
      for (const id of sendIds) await deps.jobs.send(SEND_QUEUE, { send_id: id }, { singletonKey: id });
    },
  };
}
