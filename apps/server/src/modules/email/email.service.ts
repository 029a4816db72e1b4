// Sending mail through the send spine (engage.md §1 and §2). `sendEmail` resolves the recipient,
// checks the suppression list and the From address (a verified domain of the business), renders
// the message and records it `queued` with everything the mail server will get
// (provider_request: from, to, subject, html, text, headers) — then a job (`email.send`, see
// email.jobs.ts) claims it, signs it with the domain's DKIM key and hands it to the SMTP adapter.
import { instrumentHtml } from '../email-tracking';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { FROM_ERRORS } from '@titan/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import {
  outboxTransport,
  smtpTransport,
  type EmailTransport,
} from '../../channels/email-smtp/email-smtp.adapter';
import type { Mailer } from '../../platform/mailer';
import type { Storage } from '../../platform/storage';
import type { SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import { defaultSenderOf } from '../email-domains';
import { findBusinessById } from '../business';
import { businessScope } from '../../platform/inbox-scope';
import { findVisitor } from '../directory';
import * as sends from '../sends';
import type { QueuedSend, SendCause, SendRow } from '../sends';
import { findSuppression } from '../suppressions';
import {
  loadCompiledTemplate,
  renderCompiled,
  TemplateRenderError,
  type CompiledTemplate,
} from './email-templates';
import { sendingIdentityFor, type SendingIdentity } from './sending-identity';
import { UnsubscribeTokens } from './unsubscribe-tokens';
import { escapeHtml } from '../../platform/html';
import { domainHasInbox } from './email.repository';
import { textOf } from './email.text';

export { textOf };

export type EmailDeps = {
  db: Db;
  jobs: Jobs;
  secrets: SecretBox;
  logger: Logger;
  config: Pick<
    Config,
    'PUBLIC_URL' | 'APP_SECRET' | 'EMAIL_RETRY_DELAYS_MS' | 'DNS_SERVERS' | 'DNS_TIMEOUT_MS'
  >;
  /** Stored files: inbound mail's attachments, and the files staff attach to replies. */
  storage: Storage;
  /** Where mail goes (one pooled SMTP transport per process, or the development outbox); null: nowhere. */
  transport: EmailTransport | null;
  tokens: UnsubscribeTokens;
  /**
   * Open and click tracking (email-tracking's `instrumentHtml`): rewrites the
   * links of one mail's HTML for its send id.
   */
  instrumentHtml: (html: string, sendId: string) => string;
};

export type SendEmailInput = {
  businessId: number;
  /** `hello@acme.com` or `Acme <hello@acme.com>`, on a verified sending domain of the business. */
  from?: string;
  to: { customerId?: number; address?: string };
  template?: { id: number; variables?: Record<string, unknown> };
  subject?: string;
  html?: string;
  text?: string;
  /**
   * Marketing mail (agents, broadcasts): each part of the body that does not already show the
   * mail's unsubscribe link gets one under it — people must see it, not only mail clients in
   * List-Unsubscribe; a template that places its own `{{ unsubscribe_url }}` keeps its layout.
   */
  unsubscribeFooter?: boolean;
  /**
   * A campaign of a consent topic: List-Unsubscribe's one-click leaves that topic only, and the
   * unsubscribe link people see opens the preference centre (that topic, others, or all).
   */
  topicId?: number | null;
  cause: SendCause;
  causeId?: string | null;
  createdBy?: number | null;
  idempotencyKey?: string | null;
};

/** The job that claims queued email sends and hands them to the mail server. */
export const EMAIL_SEND_QUEUE = 'email.send';

/** The email channel's dependencies, built once per process by the composition root. */
export function createEmailDeps(infra: {
  config: Pick<
    Config,
    | 'PUBLIC_URL'
    | 'APP_SECRET'
    | 'EMAIL_RETRY_DELAYS_MS'
    | 'SMTP_URL'
    | 'EMAIL_SMTP_THREADS'
    | 'DNS_SERVERS'
    | 'DNS_TIMEOUT_MS'
  >;
  db: Db;
  storage: Storage;
  jobs: Jobs;
  secrets: SecretBox;
  logger: Logger;
  mailer: Mailer;
}): EmailDeps {
  const { config, mailer } = infra;
  const transport = config.SMTP_URL
    ? smtpTransport(config.SMTP_URL, { threads: config.EMAIL_SMTP_THREADS })
    : mailer.usesOutbox
      ? outboxTransport((mail) => mailer.keepInOutbox(mail))
      : null;
  return {
    db: infra.db,
    storage: infra.storage,
    jobs: infra.jobs,
    secrets: infra.secrets,
    logger: infra.logger,
    config,
    transport,
    tokens: new UnsubscribeTokens(config.APP_SECRET),
    instrumentHtml: (html, sendId) =>
      instrumentHtml(html, sendId, { publicUrl: config.PUBLIC_URL, secret: config.APP_SECRET }),
  };
}

export const EMAIL_ERRORS = {
  noFrom:
    'Give the address to send from, or set a default sender on a verified sending domain (Settings → Email domains).',
  notVerified: (domain: string) =>
    `${domain} is not a verified sending domain of this business. Add it in Settings → Email domains and verify it, then send again.`,
  noCustomerEmail: 'This customer has no email address.',
  noRecipient: 'Give a customer or an email address.',
  noTemplate: 'No such template.',
  suppressed: (reason?: string) =>
    `Not sent: this address is on the suppression list${reason ? ` (${reason})` : ''}.`,
  noMailServer: 'Mail cannot be delivered: no mail server is configured (SMTP_URL).',
  domainLost: (domain: string) =>
    `Not sent: ${domain} is no longer a verified sending domain of this business.`,
  gaveUp: (attempts: number, message: string) => `${message} (gave up after ${attempts} attempts)`,
} as const;

/** `Name <a@b>` or `a@b` → its parts (the address lower-cased in the domain only). */
export function parseFrom(from: string): { name: string | null; address: string } {
  const m = /^\s*(.*?)\s*<\s*([^<>\s]+@[^<>\s]+)\s*>\s*$/.exec(from);
  const name = m ? m[1]!.replace(/^"(.*)"$/, '$1').trim() || null : null;
  const address = (m ? m[2]! : from).trim();
  const at = address.lastIndexOf('@');
  return { name, address: `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}` };
}

/**
 * A display name quoted for a header (RFC 5322 quoted-string). Line breaks are refused where a
 * name is given (FROM_ERRORS.lineBreak); one kept from before that (a business name) is folded
 * to a space here, never written into the header as a line end.
 */
function formatFrom(name: string | null, address: string): string {
  const oneLine = name?.replace(/[\r\n]+/g, ' ').trim();
  if (!oneLine) return address;
  return `"${oneLine.replace(/[\\"]/g, (c) => `\\${c}`)}" <${address}>`;
}

export function unsubscribeUrls(
  deps: Pick<EmailDeps, 'config' | 'tokens'>,
  sendId: string,
  /** A campaign of a topic: one-click leaves that topic only. */
  topicId?: number | null,
) {
  const token = deps.tokens.sign(sendId);
  const topic = topicId ? `&topic=${topicId}` : '';
  return {
    token,
    /** What mail clients POST (RFC 8058) or open: the API. */
    oneClick: `${deps.config.PUBLIC_URL}/api/email/unsubscribe/?token=${token}${topic}`,
    /** The preference centre: topics, or leave all. */
    preferences: `${deps.config.PUBLIC_URL}/p/${token}`,
    /** The page people read (what unsubscribing means, one button, undo). */
    page: `${deps.config.PUBLIC_URL}/engage/unsubscribe?token=${token}`,
  };
}

/** The headers every mail carries for one send (signed VERP, List-Unsubscribe, Message-ID). */
export function headersFor(
  deps: Pick<EmailDeps, 'config' | 'tokens'>,
  sendId: string,
  identity: SendingIdentity,
  topicId?: number | null,
) {
  const urls = unsubscribeUrls(deps, sendId, topicId);
  const mailto = deps.tokens.verpAddress('unsubscribe', sendId, identity.returnPathHost);
  return {
    messageId: `<${sendId}@${identity.domain}>`,
    envelopeFrom: deps.tokens.verpAddress('bounce', sendId, identity.returnPathHost),
    headers: {
      'List-Unsubscribe': `<${urls.oneClick}>, <mailto:${mailto}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    urls,
  };
}

export type Recipient = {
  address: string;
  customerId: number | null;
  customer: Record<string, unknown> | null;
};

export async function resolveRecipient(
  db: Db,
  businessId: number,
  to: SendEmailInput['to'],
): Promise<Recipient> {
  if (to.customerId !== undefined) {
    // Another business's customer is not found (404), as everywhere.
    const customer = await findVisitor(db, businessScope(businessId), to.customerId);
    if (!customer.email) {
      throw new AppError('bad_request', EMAIL_ERRORS.noCustomerEmail, {
        customer_id: [EMAIL_ERRORS.noCustomerEmail],
      });
    }
    return {
      address: customer.email.trim(),
      customerId: customer.id,
      customer: {
        id: customer.id,
        name: customer.name,
        email: customer.email,
        phone: customer.phone,
        external_id: customer.external_id,
        ...customer.fields,
      },
    };
  }
  if (!to.address) throw AppError.fields({ email: [EMAIL_ERRORS.noRecipient] });
  return { address: to.address.trim(), customerId: null, customer: null };
}

/**
 * A template rendered for one recipient, tried a second time when it fails: Liquid's render limit
 * is wall-clock time, so a pause of the process (garbage collection, a busy machine) in the middle
 * of a bulk send could otherwise skip a customer whose mail renders fine. A template that is
 * really wrong fails the second time too.
 */
function renderOnce(template: CompiledTemplate, variables: Record<string, unknown>) {
  try {
    return renderCompiled(template, variables);
  } catch (err) {
    if (!(err instanceof TemplateRenderError)) throw err;
    return renderCompiled(template, variables);
  }
}

/** What the mail says: a template rendered with its variables, or the subject and body given. */
function contentOf(
  input: Pick<SendEmailInput, 'subject' | 'html' | 'text'>,
  template: CompiledTemplate | null,
  variables: Record<string, unknown>,
): { subject: string; html: string | null; text: string } {
  if (template) {
    try {
      const rendered = renderOnce(template, variables);
      return { subject: rendered.subject, html: rendered.html, text: rendered.text || textOf(rendered.html) };
    } catch (err) {
      if (err instanceof TemplateRenderError) {
        throw new AppError('bad_request', err.message, { variables: [err.message] });
      }
      throw err;
    }
  }
  const html = input.html ?? null;
  return { subject: input.subject ?? '', html, text: input.text ?? (html ? textOf(html) : '') };
}

export const UNSUBSCRIBE_FOOTER_WORDS = 'Unsubscribe from these emails';

/**
 * The body with a visible unsubscribe link under each part (text, HTML) that does not already
 * carry `url` — a template's own link counts, one it overrode with another address does not.
 */
export function withUnsubscribeFooter<T extends { html: string | null; text: string }>(
  content: T,
  url: string,
): T {
  const href = escapeHtml(url);
  const html = content.html;
  return {
    ...content,
    text: content.text.includes(url)
      ? content.text
      : `${content.text}\n\n${UNSUBSCRIBE_FOOTER_WORDS}: ${url}`,
    html:
      html === null || html.includes(`"${href}"`) || html.includes(`'${href}'`)
        ? html
        : `${html}\n<p style="color:#666;font-size:12px"><a href="${href}">${UNSUBSCRIBE_FOOTER_WORDS}</a></p>`,
  };
}

/** What every mail of one call shares: the From address and its domain, the business, the template. */
export type SendContext = {
  identity: SendingIdentity;
  businessName: string;
  fromHeader: string;
  template: CompiledTemplate | null;
  /**
   * The domain receives mail through Titan (it has an inbox address, issue 30): every mail carries
   * a signed Reply-To that routes the customer's answer to their email conversation.
   */
  routesReplies: boolean;
};

export async function sendContext(
  deps: EmailDeps,
  input: Pick<SendEmailInput, 'businessId' | 'from' | 'template'>,
): Promise<SendContext> {
  const { db } = deps;
  // Without a From: the business's default sender (chosen once per domain in Settings).
  const fromText = input.from || (await defaultSenderOf(db, input.businessId));
  if (!fromText) throw new AppError('bad_request', EMAIL_ERRORS.noFrom, { from: [EMAIL_ERRORS.noFrom] });
  // Callers other than the API's schemas (agents, stored broadcast requests) are held to it too.
  if (/[\r\n]/.test(fromText.trim()))
    throw new AppError('bad_request', FROM_ERRORS.lineBreak, { from: [FROM_ERRORS.lineBreak] });
  const from = parseFrom(fromText);
  const identity = await sendingIdentityFor(db, deps.secrets, input.businessId, from.address);
  if (!identity) {
    const domain = from.address.slice(from.address.lastIndexOf('@') + 1);
    throw new AppError('conflict', EMAIL_ERRORS.notVerified(domain), {
      from: [EMAIL_ERRORS.notVerified(domain)],
    });
  }
  const business = await findBusinessById(db, input.businessId);
  if (!business) throw AppError.notFound();
  const template = input.template
    ? await loadCompiledTemplate(db, input.businessId, input.template.id)
    : null;
  if (input.template && !template) {
    throw new AppError('not_found', EMAIL_ERRORS.noTemplate, { template_id: [EMAIL_ERRORS.noTemplate] });
  }
  return {
    identity,
    businessName: business.name,
    fromHeader: formatFrom(from.name ?? business.name, from.address),
    template,
    routesReplies: await domainHasInbox(db, input.businessId, identity.domainId),
  };
}

/** One mail, rendered and with its headers, as the send records it (not yet written). */
export function buildSend(
  deps: EmailDeps,
  ctx: SendContext,
  input: Omit<SendEmailInput, 'to' | 'from'>,
  recipient: Recipient,
): QueuedSend & { id: string } {
  const sendId = randomUUID();
  const mail = headersFor(deps, sendId, ctx.identity, input.topicId);
  const unsubscribeUrl = input.topicId ? mail.urls.preferences : mail.urls.page;
  const rendered = contentOf(input, ctx.template, {
    customer: recipient.customer ?? { email: recipient.address },
    business: { name: ctx.businessName },
    unsubscribe_url: unsubscribeUrl,
    ...input.template?.variables,
  });
  const content = input.unsubscribeFooter ? withUnsubscribeFooter(rendered, unsubscribeUrl) : rendered;
  return {
    id: sendId,
    businessId: input.businessId,
    channel: 'email' as const,
    cause: input.cause,
    causeId: input.causeId ?? null,
    customerId: recipient.customerId,
    recipient: recipient.address,
    templateId: ctx.template?.id ?? null,
    templateName: ctx.template?.name ?? null,
    subject: content.subject,
    idempotencyKey: input.idempotencyKey ?? null,
    createdBy: input.createdBy ?? null,
    providerRequest: {
      from: ctx.fromHeader,
      to: recipient.address,
      subject: content.subject,
      html: content.html === null ? null : deps.instrumentHtml(content.html, sendId),
      text: content.text,
      headers: {
        ...mail.headers,
        ...(ctx.routesReplies
          ? { 'Reply-To': deps.tokens.verpAddress('reply', sendId, ctx.identity.returnPathHost) }
          : {}),
        'Message-ID': mail.messageId,
        'Return-Path': `<${mail.envelopeFrom}>`,
      },
      message_id: mail.messageId,
      envelope_from: mail.envelopeFrom,
      ...(ctx.template ? { template: { id: ctx.template.id, version: ctx.template.version } } : {}),
    },
  };
}

/**
 * Records one mail to send and hands it to the `email.send` job; answers the recorded send
 * (`queued`, or `suppressed` when the address may not be mailed — then nothing is called). The
 * same idempotency key answers the first send and records nothing more.
 */
export async function sendEmail(deps: EmailDeps, input: SendEmailInput): Promise<SendRow> {
  const { db } = deps;
  if (input.idempotencyKey) {
    const existing = await sends.findByIdempotencyKey(db, input.businessId, input.idempotencyKey);
    if (existing) return existing;
  }
  const recipient = await resolveRecipient(db, input.businessId, input.to);
  const ctx = await sendContext(deps, input);
  const base = buildSend(deps, ctx, input, recipient);
  const suppression = await findSuppression(db, input.businessId, 'email', recipient.address);
  const { row, created } = await sends.recordOnce(
    db,
    base,
    suppression ? EMAIL_ERRORS.suppressed(suppression.reason) : null,
  );
  if (created && !suppression) await enqueueEmailSends(deps.jobs, [row.id]);
  return row;
}

/** Hands sends to the `email.send` job (a failure here is caught up by the spine's recovery). */
export async function enqueueEmailSends(jobs: Jobs, sendIds: string[]): Promise<void> {
  for (let i = 0; i < sendIds.length; i += EMAIL_JOB_CHUNK) {
    await jobs.send(EMAIL_SEND_QUEUE, { send_ids: sendIds.slice(i, i + EMAIL_JOB_CHUNK) });
  }
}

/** Sends per `email.send` job: claimed in one statement, sent at once over the pooled connections. */
export const EMAIL_JOB_CHUNK = 50;
