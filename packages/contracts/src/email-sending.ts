// Email sending (engage.md §2 and §5): one mail or a bulk batch through /api/agents/send-mail/,
// and the public unsubscribe API the mail's List-Unsubscribe and page call.
import { z } from 'zod';
import { MARKETING_CONSENT_ERRORS, ZMarketingConsent } from './marketing-consent';

const address = z
  .string()
  .trim()
  .max(254, { message: 'Enter a valid email address.' })
  .pipe(z.email({ message: 'Enter a valid email address.' }));

export const FROM_ERRORS = {
  required: 'Enter the address to send from.',
  format: 'Enter the address to send from, e.g. hello@example.com or "Acme <hello@example.com>".',
  /** A line break in a header value would end the From field there (header injection). */
  lineBreak: 'The sender name cannot contain a line break.',
} as const;

/**
 * `hello@acme.com` or `Acme <hello@acme.com>`: on a verified sending domain of the business.
 * Every field that takes a sender (send-mail, bulk and list sends, template test sends) uses it.
 */
export const ZFromAddress = z
  .string()
  .trim()
  .min(3, { message: FROM_ERRORS.required })
  .max(320, { message: FROM_ERRORS.required })
  .superRefine((v, ctx) => {
    if (/[\r\n]/.test(v)) ctx.addIssue({ code: 'custom', message: FROM_ERRORS.lineBreak });
    else if (!/^[^<>]*<[^\s<>@]+@[^\s<>@]+>$|^[^\s<>@]+@[^\s<>@]+$/.test(v))
      ctx.addIssue({ code: 'custom', message: FROM_ERRORS.format });
  });
const fromAddress = ZFromAddress;

const variables = z.record(z.string(), z.unknown());

export const SEND_MAIL_ERRORS = {
  recipient: 'Give a customer_id or an email address.',
  bothRecipients: 'Give either a customer_id or an email address, not both.',
  content: 'Give a template_id, or a subject with html or text.',
  bothContents: 'Give either a template_id or a subject and body, not both.',
  body: 'Give the message body: html, text or both.',
  subject: 'Give a subject.',
  noSuchList: 'No such list.',
  listAndRecipient: 'A bulk send to a list takes no customer_id or email.',
  recipientsAndOthers: 'Give either recipients, a list_id, or one customer_id or email.',
} as const;

const recipientShape = {
  customer_id: z.coerce.number().int().positive().optional(),
  email: address.optional(),
  /** The same as `email` (engage.md names it `to`). */
  to: address.optional(),
};

export const ZSendMailRecipient = z
  .object({ ...recipientShape, variables: variables.optional() })
  .transform(({ to, ...v }) => ({ ...v, email: v.email ?? to }))
  .superRefine((v, ctx) => {
    if (v.customer_id === undefined && v.email === undefined)
      ctx.addIssue({ code: 'custom', path: ['email'], message: SEND_MAIL_ERRORS.recipient });
    if (v.customer_id !== undefined && v.email !== undefined)
      ctx.addIssue({ code: 'custom', path: ['email'], message: SEND_MAIL_ERRORS.bothRecipients });
  });

export const ZSendMailRequest = z
  .object({
    ...recipientShape,
    /** A bulk send to a list of the business's audience. */
    list_id: z.coerce.number().int().positive().optional(),
    /** A bulk send to these recipients (each with its own variables), answered with a batch. */
    recipients: z.array(ZSendMailRecipient).min(1).max(10_000).optional(),
    from: fromAddress.optional(),
    template_id: z.coerce.number().int().positive().optional(),
    variables: variables.optional(),
    subject: z.string().trim().min(1, { message: SEND_MAIL_ERRORS.subject }).max(998).optional(),
    html: z.string().min(1).max(2_000_000).optional(),
    text: z.string().min(1).max(2_000_000).optional(),
    /** Plain text body (engage.md's `body`); the same as `text`. */
    body: z.string().min(1).max(2_000_000).optional(),
    /** Sending twice with one key sends once: the second call answers the first send. */
    idempotency_key: z.string().trim().min(1).max(200).optional(),
    /**
     * With list_id: who may be mailed. `subscribed` (the default): only customers who subscribed;
     * `legitimate_interest`: also those whose consent is unknown. Never the opted out.
     */
    consent: ZMarketingConsent.optional(),
  })
  .transform(({ to, body, ...v }) => ({ ...v, email: v.email ?? to, text: v.text ?? body }))
  .superRefine((v, ctx) => {
    const single = v.customer_id !== undefined || v.email !== undefined;
    const bulk = v.list_id !== undefined || v.recipients !== undefined;
    if (v.consent !== undefined && v.list_id === undefined)
      ctx.addIssue({ code: 'custom', path: ['consent'], message: MARKETING_CONSENT_ERRORS.listOnly });
    if (bulk && single)
      ctx.addIssue({ code: 'custom', path: ['email'], message: SEND_MAIL_ERRORS.listAndRecipient });
    else if (v.list_id !== undefined && v.recipients !== undefined)
      ctx.addIssue({ code: 'custom', path: ['recipients'], message: SEND_MAIL_ERRORS.recipientsAndOthers });
    else if (!bulk && v.customer_id === undefined && v.email === undefined)
      ctx.addIssue({ code: 'custom', path: ['email'], message: SEND_MAIL_ERRORS.recipient });
    else if (v.customer_id !== undefined && v.email !== undefined)
      ctx.addIssue({ code: 'custom', path: ['email'], message: SEND_MAIL_ERRORS.bothRecipients });
    const own = v.subject !== undefined || v.html !== undefined || v.text !== undefined;
    if (v.template_id !== undefined && own)
      ctx.addIssue({ code: 'custom', path: ['template_id'], message: SEND_MAIL_ERRORS.bothContents });
    else if (v.template_id === undefined && !own)
      ctx.addIssue({ code: 'custom', path: ['subject'], message: SEND_MAIL_ERRORS.content });
    else if (v.template_id === undefined && v.subject === undefined)
      ctx.addIssue({ code: 'custom', path: ['subject'], message: SEND_MAIL_ERRORS.subject });
    else if (v.template_id === undefined && v.html === undefined && v.text === undefined)
      ctx.addIssue({ code: 'custom', path: ['text'], message: SEND_MAIL_ERRORS.body });
  });
export type TSendMailRequest = z.input<typeof ZSendMailRequest>;
export type TSendMailInput = z.output<typeof ZSendMailRequest>;

/** One send as the sending API answers it (`id` is the tracking id of the email logs). */
export const ZEmailSend = z.object({
  id: z.string(),
  tracking_id: z.string(),
  status: z.string(),
  recipient: z.string(),
  customer_id: z.number().int().nullable(),
  subject: z.string().nullable(),
  template_id: z.number().int().nullable(),
  provider_message_id: z.string().nullable(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  created_at: z.string(),
});
export type TEmailSend = z.infer<typeof ZEmailSend>;

/** A bulk send and how far it got (counts of its sends by status). */
export const ZEmailBatch = z.object({
  batch_id: z.string(),
  total: z.number().int(),
  /** Recorded but not yet answered by the mail server (queued or being sent). */
  pending: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  suppressed: z.number().int(),
  /** Sends by their exact status (sent, delivered, opened, bounced, …). */
  statuses: z.record(z.string(), z.number().int()),
  done: z.boolean(),
  created_at: z.string(),
});
export type TEmailBatch = z.infer<typeof ZEmailBatch>;

export const ZSendMailResult = z.union([ZEmailSend, ZEmailBatch]);

export const ZEmailBatchParams = z.object({ batch_id: z.uuid({ message: 'Not found.' }) });

// ---- Unsubscribe (public; the token comes from the mail) ----

export const ZUnsubscribeQuery = z.object({
  token: z.string().max(200).optional(),
  /**
   * One-click on a mail of a campaign that targets a topic: the link carries the topic, and the
   * one-click leaves that topic only (the preference centre still offers to leave all).
   */
  topic: z.coerce.number().int().positive().optional(),
});
/** JSON `{token}`, or RFC 8058's form body `List-Unsubscribe=One-Click` (token in the query). */
export const ZUnsubscribeBody = z
  .object({ token: z.string().max(200).optional(), 'List-Unsubscribe': z.string().max(50).optional() })
  .nullish();
export const ZResubscribeRequest = z.object({
  token: z.string().min(1, { message: 'This link is not valid.' }).max(200),
});

export const ZUnsubscribeState = z.object({
  email: z.string(),
  business_name: z.string(),
  unsubscribed: z.boolean(),
});
export type TUnsubscribeState = z.infer<typeof ZUnsubscribeState>;

export const UNSUBSCRIBE_ERRORS = {
  invalid: 'This unsubscribe link is not valid. Use the link from the latest mail you received.',
} as const;

/** POST /api/template/{id}/test/: one test mail of a saved template to an address. */
export const ZTemplateTestRequest = z.object({
  to: z.email({ message: 'Enter a valid email address.' }).max(254),
  /** An address on a verified sending domain of the business, optionally with a name. */
  from: ZFromAddress,
  variables: z.record(z.string(), z.unknown()).optional(),
});
export type TTemplateTestRequest = z.infer<typeof ZTemplateTestRequest>;
