// Email conversations, outbound (issue 30): staff answer from the composer and the reply leaves as
// any mail does — recorded on the send spine (cause staff_reply), then signed with the domain's DKIM
// key and handed to the mail server by the `email.send` job. It is sent from the address the
// customer wrote to (the inbox address, or the From of the mail they answered), carries
// In-Reply-To and References so their mail client threads it, and a signed Reply-To
// (`reply+<send>.<mac>@<return-path host>`) that routes their next answer back here. Rich text is
// sanitised, attachments are the business's uploaded files, cc addresses are copied, bcc ones
// only in the envelope; a subject of its own starts a new thread.
import type { TSendMessageRequest } from '@titan/contracts';
import { advisoryLock } from '../../db/sql';
import { AppError } from '../../platform/errors';
import { escapeHtml } from '../../platform/html';
import { replyThread, type ChannelReplier, type PreparedReply, type ReplyTarget } from '../conversations';
import { adoptSuppressions } from '../consent';
import * as directory from '../directory';
import { findBusinessFile } from '../files';
import { findSuppression } from '../suppressions';
import { sanitizeMailHtml } from './email.inbound-parse';
import * as repo from './email.repository';
import { buildSend, enqueueEmailSends, resolveRecipient, sendContext, type EmailDeps } from './email.service';

export const EMAIL_REPLY_ERRORS = {
  noCustomer: 'This conversation has no customer to write to.',
  noAddress:
    'This conversation has no address to reply from: the customer has not written to an inbox address.',
  unknownFile: 'Upload the file first and send its key.',
  fileOnly: 'Email replies are text with attachments: send the file’s key in attachment_ids.',
  suppressed: (address: string, reason: string) =>
    `Not sent: ${address} is on the suppression list (${reason}).`,
} as const;

/** The reply's subject: the conversation's, answered. */
const replySubject = (title: string) => (/^re\s*:/i.test(title) ? title : `Re: ${title}`);

/** Plain text as HTML paragraphs (a reply typed without formatting). */
const textAsHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');

export function emailReplier(deps: EmailDeps): ChannelReplier {
  return {
    async prepare(
      target: ReplyTarget,
      input: TSendMessageRequest,
      userId,
      opening?: { from?: string },
    ): Promise<PreparedReply> {
      if (input.message_type !== 'text') throw AppError.fields({ content: [EMAIL_REPLY_ERRORS.fileOnly] });
      if (target.initiatorId === null) throw new AppError('conflict', EMAIL_REPLY_ERRORS.noCustomer);
      const thread = opening
        ? { lastInbound: null, lastFrom: null, messageIds: [] }
        : await replyThread(deps.db, target.id);
      // The address the customer wrote to; else the one the business wrote from (a conversation
      // staff started); a new one: the From asked for, the business's first inbox address, or
      // (undefined) its default sender.
      const inboundFrom = thread.lastInbound?.reply_from;
      const from = opening
        ? (opening.from ?? (await repo.listInboxes(deps.db, target.businessId)).at(-1)?.address)
        : typeof inboundFrom === 'string' && inboundFrom
          ? inboundFrom
          : thread.lastFrom;
      if (!opening && !from) throw new AppError('conflict', EMAIL_REPLY_ERRORS.noAddress);
      const recipient = await resolveRecipient(deps.db, target.businessId, {
        customerId: target.initiatorId,
      });
      const suppression = await findSuppression(deps.db, target.businessId, 'email', recipient.address);
      if (suppression) {
        const reason = EMAIL_REPLY_ERRORS.suppressed(recipient.address, suppression.reason);
        throw new AppError('conflict', reason, { content: [reason] });
      }
      const files = [];
      for (const key of input.attachment_ids ?? []) {
        const file = await findBusinessFile(deps.db, target.businessId, key);
        if (!file) throw AppError.fields({ attachment_ids: [EMAIL_REPLY_ERRORS.unknownFile] });
        files.push({ key: file.key, file_name: file.fileName, mime_type: file.mimeType, size: file.size });
      }
      const ctx = await sendContext(deps, { businessId: target.businessId, ...(from ? { from } : {}) });
      const html = input.html ? sanitizeMailHtml(input.html) : textAsHtml(input.content);
      // A subject of its own starts a new thread: the customer's client shows it apart.
      const newThread = input.subject !== undefined;
      const subject = input.subject ?? replySubject(target.title || '(no subject)');
      const send = buildSend(
        deps,
        ctx,
        {
          businessId: target.businessId,
          subject,
          html,
          text: input.content,
          cause: 'staff_reply',
          createdBy: userId,
        },
        recipient,
      );
      const request = send.providerRequest as { headers: Record<string, string>; message_id: string };
      const lastId =
        !newThread && typeof thread.lastInbound?.message_id === 'string'
          ? thread.lastInbound.message_id
          : null;
      const references = newThread ? [] : thread.messageIds.slice(-20);
      request.headers = {
        ...request.headers,
        'Reply-To': deps.tokens.verpAddress('reply', send.id, ctx.identity.returnPathHost),
        ...(lastId ? { 'In-Reply-To': lastId } : {}),
        ...(references.length > 0 ? { References: references.join(' ') } : {}),
      };
      send.providerRequest = {
        ...send.providerRequest,
        ...(input.cc?.length ? { cc: input.cc } : {}),
        ...(input.bcc?.length ? { bcc: input.bcc } : {}),
        ...(files.length ? { attachments: files } : {}),
      };
      return {
        send,
        content: input.content,
        metaData: {
          message_id: request.message_id,
          subject,
          from: ctx.fromHeader,
          to: [recipient.address],
          cc: input.cc ?? [],
          bcc: input.bcc ?? [],
          html,
          attachments: files,
          in_reply_to: lastId,
        },
      };
    },
    async customerOf(businessId, who) {
      if ('customerId' in who) return directory.customerToWrite(deps.db, businessId, who.customerId);
      const address = who.to.trim();
      return deps.db.transaction(async (tx) => {
        // The lock inbound mail from this address takes: one customer, whoever writes first.
        await advisoryLock(tx, `email-in:${businessId}:${address}`);
        const [known] = await directory.findCustomersByEmail(tx, businessId, address);
        if (known) return known;
        const customer = await directory.insertCustomer(tx, { businessId, email: address });
        await adoptSuppressions(tx, businessId, [customer.id]);
        return customer;
      });
    },
    dispatch: (sendIds) => enqueueEmailSends(deps.jobs, sendIds),
  };
}
