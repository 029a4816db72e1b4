// Message templates: synced from Meta, listed with the parameters each takes, and sent (into a
// conversation or to a number) after the checks Meta would run, rendered so the inbox can draw them.
import type {
  TMessage,
  TSendTemplateComponent,
  TSendTemplateInput,
  TTemplateComponent,
  TTemplateListQuery,
  TTemplateParameter,
  TTemplateSyncResult,
  TWhatsappTemplate,
} from '@titan/contracts';
import type { Db } from '../../../db/client';
import { AppError } from '../../../platform/errors';
import * as conversations from '../../conversations';
import { toMessages } from '../../conversations';
import { type InboxScope } from '../../../platform/inbox-scope';
import { isSuppressed } from '../../suppressions';
import * as directory from '../../directory';
import { GraphError, type GraphTemplate } from '../../../channels/whatsapp-cloud/whatsapp-cloud.graph';
import {
  connectedAccount,
  deliver,
  toAppError,
  type Delivery,
  type WhatsappDeps,
} from '../messages/whatsapp.outbound';
import * as templatesRepo from './whatsapp.templates.repository';
import * as mediaRepo from '../media/whatsapp.media.repository';
import { contactLockKey, waDigitsOf, waExternalId } from '../wa-id';
import * as sendsRepo from '../../sends';
import { advisoryLock } from '../../../db/sql';

export const TEMPLATE_ERRORS = {
  notFound: 'No template with this name. Sync templates to fetch the latest from WhatsApp.',
  unknown: 'This template is not known in that language. Sync templates and try again.',
  notApproved: (status: string) => `Only approved templates can be sent; this one is ${status}.`,
  notWhatsapp: 'Templates can only be sent in WhatsApp conversations.',
  noNumber: 'This conversation has no WhatsApp number to send to.',
  badNumber: 'Enter a phone number in international format, with its country code.',
  optedOut: 'This number opted out of WhatsApp messages from your business; no template was sent.',
  count: (part: string, expected: number, given: number) =>
    `The ${part} takes ${expected} parameter${expected === 1 ? '' : 's'}; ${given} given.`,
  textOnly: (part: string) => `The ${part}'s parameters are text.`,
  named: (part: string, names: string[]) =>
    `Name each ${part} parameter (parameter_name): ${names.join(', ')}.`,
  twice: (part: string) => `Send the ${part}'s parameters in one component.`,
  headerMedia: (format: string) => `The header takes one ${format.toLowerCase()}.`,
  noLocation: 'Templates with a location header cannot be sent from Titan.',
  headerMediaUnknown: 'Upload the header file first and send the id it was given.',
  button: (text: string) => `The "${text}" button takes one text parameter.`,
  noSuchButton: (index: number | undefined) =>
    index === undefined
      ? 'Give the index of the button the parameter is for.'
      : `Button ${index} of this template takes no such parameter.`,
} as const;

const MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
type MediaFormat = (typeof MEDIA_FORMATS)[number];
const isMediaFormat = (f: string): f is MediaFormat => (MEDIA_FORMATS as readonly string[]).includes(f);

type Component = TTemplateComponent;
type Button = { type?: unknown; text?: unknown; url?: unknown; phone_number?: unknown };

const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : '');
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const componentOf = (components: Component[], type: string) => components.find((c) => upper(c.type) === type);
const buttonsOf = (components: Component[]) =>
  (componentOf(components, 'BUTTONS')?.buttons ?? []) as unknown as Button[];

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** Distinct `{{…}}` placeholders of a text, positional ones by number, named ones as written. */
export function placeholders(text: unknown): string[] {
  const found = [...new Set([...str(text).matchAll(PLACEHOLDER)].map((m) => m[1]!))];
  return found.every((p) => /^\d+$/.test(p)) ? found.sort((a, b) => Number(a) - Number(b)) : found;
}

/** What a send of this template must supply, read from Meta's component definitions. */
export function parametersOf(components: Component[]) {
  const header = componentOf(components, 'HEADER');
  const headerFormat = header ? upper(header.format) || 'TEXT' : null;
  const headerNames = headerFormat === 'TEXT' ? placeholders(header?.text) : [];
  return {
    headerFormat,
    header: headerNames,
    headerCount: headerFormat === null ? 0 : headerFormat === 'TEXT' ? headerNames.length : 1,
    body: placeholders(componentOf(components, 'BODY')?.text),
    buttons: buttonsOf(components).flatMap((b, index) =>
      upper(b.type) === 'URL' && placeholders(b.url).length > 0
        ? [{ index, type: 'URL', text: str(b.text) }]
        : [],
    ),
  };
}

export function toTemplate(row: templatesRepo.WhatsappTemplateRow): TWhatsappTemplate {
  const p = parametersOf(row.components as Component[]);
  return {
    id: row.id,
    meta_id: row.metaId,
    name: row.name,
    language: row.language,
    status: row.status,
    category: row.category,
    parameter_format: row.parameterFormat,
    components: row.components as Component[],
    header_format: p.headerFormat,
    body_parameters: p.body.length,
    header_parameters: p.headerCount,
    body_parameter_names: p.body,
    header_parameter_names: p.header,
    button_parameters: p.buttons,
    synced_at: row.syncedAt.toISOString(),
  };
}

function toValues(t: GraphTemplate): templatesRepo.WhatsappTemplateValues | null {
  if (typeof t.name !== 'string' || !t.name || typeof t.language !== 'string' || !t.language) return null;
  const components = Array.isArray(t.components) ? (t.components as Component[]) : [];
  const named = placeholders(componentOf(components, 'BODY')?.text).some((p) => !/^\d+$/.test(p));
  return {
    metaId: String(t.id ?? ''),
    name: t.name,
    language: t.language,
    status: upper(t.status) || 'PENDING',
    category: upper(t.category) || 'UTILITY',
    parameterFormat: t.parameter_format ? upper(t.parameter_format) : named ? 'NAMED' : 'POSITIONAL',
    components,
  };
}

/** Every page of Meta's list replaces the stored templates: new and changed kept, vanished removed. */
export async function syncTemplates(deps: WhatsappDeps, businessId: number): Promise<TTemplateSyncResult> {
  const { creds } = await connectedAccount(deps, businessId);
  let listed: GraphTemplate[];
  try {
    listed = await deps.graph.listTemplates(creds);
  } catch (err) {
    if (err instanceof GraphError) throw toAppError(err);
    throw err;
  }
  const byKey = new Map<string, templatesRepo.WhatsappTemplateValues>();
  for (const t of listed) {
    const values = toValues(t);
    if (values) byKey.set(`${values.name}\u0000${values.language}`, values);
  }
  return templatesRepo.replaceTemplates(deps.db, businessId, [...byKey.values()]);
}

export async function findTemplates(
  db: Db,
  businessId: number,
  query: TTemplateListQuery,
): Promise<TWhatsappTemplate[]> {
  return (await templatesRepo.listTemplates(db, businessId, query)).map(toTemplate);
}

export async function findTemplate(
  db: Db,
  businessId: number,
  name: string,
  language?: string,
): Promise<TWhatsappTemplate> {
  const row = await templatesRepo.findTemplate(db, businessId, name, language || undefined);
  if (!row) throw AppError.notFound(TEMPLATE_ERRORS.notFound);
  return toTemplate(row);
}

type Part = 'header' | 'body';

function checkText(
  part: Part,
  names: string[],
  named: boolean,
  params: TTemplateParameter[],
  errors: string[],
): void {
  if (params.length !== names.length) {
    errors.push(TEMPLATE_ERRORS.count(part, names.length, params.length));
    return;
  }
  if (params.some((p) => p.type !== 'text')) {
    errors.push(TEMPLATE_ERRORS.textOnly(part));
    return;
  }
  if (named) {
    const given = new Set(params.map((p) => (p.type === 'text' ? (p.parameter_name ?? '') : '')));
    if (given.size !== names.length || names.some((n) => !given.has(n)))
      errors.push(TEMPLATE_ERRORS.named(part, names));
  }
}

/**
 * The parameter checks Meta runs on a send (counts, kinds, names), so staff get a field error
 * before anything goes out. Returns the messages for `components`; empty when the send fits.
 */
export function checkParameters(
  template: templatesRepo.WhatsappTemplateRow,
  given: TSendTemplateComponent[],
): string[] {
  const components = template.components as Component[];
  const expected = parametersOf(components);
  const errors: string[] = [];
  const named = upper(template.parameterFormat) === 'NAMED';
  for (const part of ['header', 'body'] as const) {
    if (given.filter((c) => c.type === part).length > 1) errors.push(TEMPLATE_ERRORS.twice(part));
  }
  const paramsOf = (part: Part) => given.find((c) => c.type === part)?.parameters ?? [];

  checkText('body', expected.body, named, paramsOf('body'), errors);

  const header = paramsOf('header');
  const format = expected.headerFormat;
  if (format === null || format === 'TEXT') checkText('header', expected.header, named, header, errors);
  else if (format === 'LOCATION') errors.push(TEMPLATE_ERRORS.noLocation);
  else if (header.length !== 1 || header[0]!.type !== format.toLowerCase())
    errors.push(TEMPLATE_ERRORS.headerMedia(format));

  const buttons = buttonsOf(components);
  const givenButtons = given.filter((c) => c.type === 'button');
  for (const b of expected.buttons) {
    const c = givenButtons.find((g) => g.index === b.index);
    if (!c || c.parameters.length !== 1 || c.parameters[0]!.type !== 'text')
      errors.push(TEMPLATE_ERRORS.button(b.text));
  }
  for (const c of givenButtons) {
    const button = c.index === undefined ? undefined : buttons[c.index];
    const fits =
      button &&
      ((c.sub_type === 'url' && expected.buttons.some((b) => b.index === c.index)) ||
        (c.sub_type === 'quick_reply' &&
          upper(button.type) === 'QUICK_REPLY' &&
          c.parameters.length === 1 &&
          c.parameters[0]!.type === 'payload'));
    if (!fits) errors.push(TEMPLATE_ERRORS.noSuchButton(c.index));
  }
  return [...new Set(errors)];
}

function fill(text: unknown, params: TTemplateParameter[], named: boolean): string {
  return str(text).replace(PLACEHOLDER, (whole, key: string) => {
    const p = named
      ? params.find((x) => x.type === 'text' && x.parameter_name === key)
      : /^\d+$/.test(key)
        ? params[Number(key) - 1]
        : undefined;
    return p?.type === 'text' ? p.text : whole;
  });
}

/** The media object of a header parameter, as sent. */
function mediaOf(p: TTemplateParameter | undefined): Record<string, string> | null {
  if (!p) return null;
  const media =
    p.type === 'document' ? p.document : p.type === 'image' ? p.image : p.type === 'video' ? p.video : null;
  if (!media) return null;
  return Object.fromEntries(Object.entries(media).filter(([, v]) => typeof v === 'string' && v)) as Record<
    string,
    string
  >;
}

/**
 * The template as the customer sees it, for meta_data.template: the template's own components
 * with the parameters filled in (HEADER {format, text | document | image | video}, BODY {text},
 * FOOTER {text}, BUTTONS {buttons: [{type, text, url?, phone_number?, payload?}]}).
 */
export function renderTemplate(template: templatesRepo.WhatsappTemplateRow, given: TSendTemplateComponent[]) {
  const components = template.components as Component[];
  const named = upper(template.parameterFormat) === 'NAMED';
  const paramsOf = (part: Part) => given.find((c) => c.type === part)?.parameters ?? [];
  const rendered: Record<string, unknown>[] = [];

  const header = componentOf(components, 'HEADER');
  if (header) {
    const format = upper(header.format) || 'TEXT';
    if (format === 'TEXT') {
      rendered.push({ type: 'HEADER', format, text: fill(header.text, paramsOf('header'), named) });
    } else {
      const media = mediaOf(paramsOf('header')[0]);
      rendered.push({
        type: 'HEADER',
        format,
        ...(media && isMediaFormat(format) ? { [format.toLowerCase()]: media } : {}),
      });
    }
  }
  const body = fill(componentOf(components, 'BODY')?.text, paramsOf('body'), named);
  rendered.push({ type: 'BODY', text: body });
  const footer = componentOf(components, 'FOOTER');
  if (footer && str(footer.text)) rendered.push({ type: 'FOOTER', text: str(footer.text) });
  const buttons = buttonsOf(components);
  if (buttons.length > 0) {
    const paramAt = (index: number) =>
      given.find((c) => c.type === 'button' && c.index === index)?.parameters[0];
    rendered.push({
      type: 'BUTTONS',
      buttons: buttons.map((b, index) => {
        const type = upper(b.type);
        const p = paramAt(index);
        return {
          type,
          text: str(b.text),
          ...(type === 'URL' && str(b.url) ? { url: fill(b.url, p ? [p] : [], false) } : {}),
          ...(type === 'PHONE_NUMBER' && str(b.phone_number) ? { phone_number: str(b.phone_number) } : {}),
          ...(p?.type === 'payload' ? { payload: p.payload } : {}),
        };
      }),
    });
  }
  return {
    content: body,
    template: { name: template.name, language: { code: template.language }, components: rendered },
  };
}

/** The Graph body's `template`: the send's components as Meta documents them (button index a string). */
function graphTemplate(template: templatesRepo.WhatsappTemplateRow, given: TSendTemplateComponent[]) {
  const components = given
    .filter((c) => c.parameters.length > 0)
    .map((c) => ({
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

type Target = { conversationId: number; recipient: string; opened: boolean };

/** The conversation's customer, reached at the WhatsApp id they wrote from. */
async function targetConversation(deps: WhatsappDeps, scope: InboxScope, id: number): Promise<Target> {
  const found = await conversations.findConversation(deps.db, scope, id);
  if (!found) throw AppError.notFound();
  if (found.conversation.channel !== 'whatsapp')
    throw AppError.fields({ conversation_id: [TEMPLATE_ERRORS.notWhatsapp] });
  const externalId = found.initiator
    ? await directory.findCustomerExternalId(deps.db, scope.businessId, found.initiator.id)
    : null;
  const waId = waDigitsOf(externalId);
  if (!waId) throw new AppError('conflict', TEMPLATE_ERRORS.noNumber);
  return { conversationId: id, recipient: waId, opened: false };
}

/** The number's customer and WhatsApp conversation, created as an inbound message would. */
async function targetNumber(deps: WhatsappDeps, businessId: number, to: string): Promise<Target> {
  const digits = to.replace(/\D/g, '');
  if (digits.length < 6 || digits.length > 15) throw AppError.fields({ to: [TEMPLATE_ERRORS.badNumber] });
  return deps.db.transaction(async (tx) => {
    // The same lock as receiving, so a reply arriving meanwhile never opens a second conversation.
    await advisoryLock(tx, contactLockKey(businessId, digits));
    const customer =
      (await directory.findCustomerByExternalId(tx, businessId, waExternalId(digits))) ??
      (await directory.insertCustomer(tx, {
        businessId,
        externalId: waExternalId(digits),
        phone: `+${digits}`,
      }));
    const existing = await conversations.findLatestConversationOf(tx, businessId, 'whatsapp', customer.id);
    if (existing) return { conversationId: existing.id, recipient: digits, opened: false };
    // Announced (conversation.created, conversation.opened) with the first message's acceptance:
    // a conversation Meta refuses the first message of is taken back, never told of.
    const created = await conversations.insertConversation(tx, {
      businessId,
      channel: 'whatsapp',
      initiatorId: customer.id,
      title: customer.name ? `WhatsApp with ${customer.name}` : `WhatsApp +${digits}`,
    });
    return { conversationId: created.id, recipient: digits, opened: true };
  });
}

export type TemplateSender = { scope: InboxScope; userId: number | null };

/**
 * A header media given by id that Titan knows (uploaded or received by this business) must be one
 * the sender may see: sending it would otherwise put it in a conversation of theirs, and so make
 * it theirs to fetch. Ids Titan does not know go to Meta as given.
 */
async function checkHeaderMedia(
  deps: WhatsappDeps,
  sender: TemplateSender,
  given: TSendTemplateComponent[],
): Promise<void> {
  if (sender.scope.groupIds === null) return;
  const id = mediaOf(given.find((c) => c.type === 'header')?.parameters[0])?.id;
  if (!id) return;
  if (await mediaRepo.findVisibleMedia(deps.db, sender.scope, sender.userId, id)) return;
  if (await mediaRepo.findBusinessMedia(deps.db, sender.scope.businessId, id))
    throw AppError.fields({ components: [TEMPLATE_ERRORS.headerMediaUnknown] });
}

/**
 * Sends an approved template (allowed outside the 24-hour window) into a WhatsApp conversation,
 * or to a number, opening its conversation. Answers the stored message.
 */
export async function sendTemplate(
  deps: WhatsappDeps,
  sender: TemplateSender,
  input: TSendTemplateInput,
  origin?: Delivery['origin'],
): Promise<TMessage> {
  const businessId = sender.scope.businessId;
  // A conversation out of reach is "not found" before anything else is said about the send.
  const inConversation =
    input.conversation_id !== undefined
      ? await targetConversation(deps, sender.scope, input.conversation_id)
      : null;
  const template = await templatesRepo.findTemplate(deps.db, businessId, input.name, input.language);
  if (!template) throw AppError.fields({ name: [TEMPLATE_ERRORS.unknown] });
  if (template.status !== 'APPROVED')
    throw new AppError('conflict', TEMPLATE_ERRORS.notApproved(template.status));
  const errors = checkParameters(template, input.components);
  if (errors.length > 0) throw AppError.fields({ components: errors });
  await checkHeaderMedia(deps, sender, input.components);
  const account = await connectedAccount(deps, businessId);
  // A number the business stopped messaging gets no template from it (engage.md §3: every send asks).
  const digits = inConversation?.recipient ?? input.to!.replace(/\D/g, '');
  if (await isSuppressed(deps.db, businessId, 'whatsapp', `+${digits}`))
    throw new AppError('conflict', TEMPLATE_ERRORS.optedOut);
  // Only a send that passed every check opens a conversation with a new number.
  const target = inConversation ?? (await targetNumber(deps, businessId, input.to!));
  const rendered = renderTemplate(template, input.components);
  try {
    const row = await deliver(deps, account, {
      businessId,
      conversationId: target.conversationId,
      recipient: target.recipient,
      senderType: origin?.cause === 'agent' ? 'agent' : sender.userId === null ? 'system' : 'staff',
      senderId: sender.userId,
      payload: { type: 'template', template: graphTemplate(template, input.components) },
      content: rendered.content,
      extraMeta: { template: rendered.template },
      templateName: template.name,
      opensConversation: target.opened,
      ...(origin ? { origin } : {}),
    });
    return (await toMessages(deps, businessId, [row]))[0]!;
  } catch (err) {
    if (target.opened) {
      // Meta refused the first message: take back the empty conversation opened for it.
      await deps.db.transaction(async (tx) => {
        await advisoryLock(tx, contactLockKey(businessId, target.recipient));
        if (await conversations.deleteConversationIfEmpty(tx, businessId, target.conversationId))
          await sendsRepo.detachConversation(tx, businessId, target.conversationId);
      });
    }
    throw err;
  }
}

/** Whether the business has a synced WhatsApp template with this id (agent configs name one by id). */
export async function whatsappTemplateExists(db: Db, businessId: number, id: number): Promise<boolean> {
  return templatesRepo.templateIdExists(db, businessId, id);
}

/** A synced template by id, for agents: null when the business has none. */
export async function findTemplateById(db: Db, businessId: number, id: number) {
  return templatesRepo.findTemplateById(db, businessId, id);
}

export { lastCustomerMessagesOf } from '../messages/whatsapp.messages.repository';
