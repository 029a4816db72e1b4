// Email conversations, inbound (issue 30): mail the SMTP listener took for an inbox address
// (`support@acme.com`) or for the signed reply address of a mail Titan sent (`reply+<send>.<mac>@…`)
// becomes a message in the sender's email conversation of that business — and of no other: an inbox
// address belongs to one business, a reply address names one send. On the way it is authenticated
// (SPF, DKIM, DMARC by mailauth, results kept on the message) and spam-scored (email.spam.ts: a
// failing DMARC or SPF without a passing DKIM is spam alone; content rules add up), its HTML sanitised for display (sanitize-html), its quoted history
// and signature folded away (email-reply-parser's rules, email.reply-fold.ts) — all of that read from the bytes by
// email.inbound-parse.ts in an inbound thread —, its attachments stored as files. It continues a
// conversation by In-Reply-To / References, then by the reply address, then by subject and sender
// within 30 days (conversations' findEmailThread). An auto-reply (RFC 3834 Auto-Submitted, the
// X-Autoreply family, Precedence bulk/junk/auto_reply, a null sender) never opens a conversation,
// so two autoresponders cannot loop through Titan; Titan itself never answers mail automatically.
// A member's forward of a customer's mail opens the conversation with that customer (email.forwarded.ts).
import { advisoryLock } from '../../db/sql';
import type { Storage } from '../../platform/storage';
import { adoptSuppressions } from '../consent';
import {
  findConversationOfMessageIds,
  findEmailThread,
  findLatestConversationOf,
  receiveChannelMessage,
} from '../conversations';
import * as directory from '../directory';
import { putFileBytes, recordStoredFiles, type PendingFile } from '../files';
import { findSendById, type SendRow } from '../sends';
import { findMembers } from '../team';
import { bracketed, INBOUND_LIMITS, threadSubject, type ParsedInbound } from './email.inbound-parse';
import type { EmailDeps } from './email.service';
import { parseFrom } from './email.service';
import * as repo from './email.repository';

export { INBOUND_LIMITS };
export type { SmtpSessionFacts } from './email.inbound-parse';

export type InboundTarget = { kind: 'inbox'; inbox: repo.EmailInboxRow } | { kind: 'reply'; send: SendRow };

export type InboundMailOutcome =
  | { outcome: 'stored'; businessId: number; conversationId: number; messageId: number }
  | { outcome: 'auto_reply_dropped' | 'duplicate' | 'no_sender' | 'own_mail'; businessId: number };

/** The inbox address the listener takes mail for, or null. */
export async function inboxForAddress(deps: Pick<EmailDeps, 'db'>, address: string) {
  return repo.findInboxByAddress(deps.db, address.trim().toLowerCase());
}

/** The email send a signed reply address names, or null (then the mail is refused at RCPT). */
export async function sendForReply(deps: Pick<EmailDeps, 'db'>, sendId: string): Promise<SendRow | null> {
  const send = await findSendById(deps.db, sendId);
  return send?.channel === 'email' ? send : null;
}

/**
 * One message for one inbox or reply address, parsed (email.inbound-parse.ts, in an inbound
 * thread), stored in its conversation. A Message-ID already stored for the business is not stored
 * twice (a retried delivery, or a mail to two addresses). `size`: the message's bytes on the wire.
 */
export async function receiveMail(
  deps: EmailDeps & { storage: Storage },
  target: InboundTarget,
  mail: ParsedInbound,
  size: number,
): Promise<InboundMailOutcome> {
  const businessId = target.kind === 'inbox' ? target.inbox.businessId : target.send.businessId;
  const from = mail.from;
  if (!from) return { outcome: 'no_sender', businessId };
  // Mail from one of the business's own inbox addresses would answer itself.
  if (await repo.findInboxByAddress(deps.db, from)) return { outcome: 'own_mail', businessId };
  const { messageId, auth, verdict } = mail;
  // A member's authenticated forward opens a conversation with the original sender.
  const forward = await staffForward(deps, target, mail);
  const customerAddress = forward?.from ?? from;
  const auto = forward ? false : mail.autoReply;
  const subject = threadSubject(forward ? forward.subject : mail.subject);
  const replyConversationId = target.kind === 'reply' ? target.send.conversationId : null;
  const body = forward ?? mail.body;
  const replyFrom =
    target.kind === 'inbox'
      ? target.inbox.address
      : parseFrom(String(target.send.providerRequest.from)).address;

  // The attachments' bytes are stored before the transaction; their rows are written in it, with the
  // message (one commit; no row for a mail that is not stored).
  const files: PendingFile[] = [];
  for (const a of mail.attachments) {
    files.push(
      await putFileBytes(
        deps,
        businessId,
        `email_attachments/${businessId}`,
        {
          fileName: a.filename,
          bytes: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
        },
        INBOUND_LIMITS.attachmentBytes,
      ),
    );
  }
  const attachments = files.map((f) => ({
    key: f.key,
    file_name: f.fileName,
    mime_type: f.mimeType,
    size: f.size,
  }));

  return deps.db.transaction(async (tx) => {
    // One sender's mails take turns (two at once from a new address create one customer).
    await advisoryLock(tx, `email-in:${businessId}:${customerAddress}`);
    if (messageId && (await findConversationOfMessageIds(tx, businessId, [messageId])) !== null)
      return { outcome: 'duplicate' as const, businessId };
    const [known] = await directory.findCustomersByEmail(tx, businessId, customerAddress);
    let customer = known;
    if (!customer) {
      if (auto) return { outcome: 'auto_reply_dropped' as const, businessId };
      const name = forward ? forward.name : mail.fromName;
      customer = await directory.insertCustomer(tx, { businessId, email: customerAddress, name });
      await adoptSuppressions(tx, businessId, [customer.id]);
    }
    let thread = await findEmailThread(tx, {
      businessId,
      customerId: customer.id,
      messageIds: forward ? (forward.messageId ? [bracketed(forward.messageId)] : []) : mail.answeredIds,
      replyConversationId,
      subject,
    });
    if (thread === null && target.kind === 'reply')
      thread = (await findLatestConversationOf(tx, businessId, 'email', customer.id))?.id ?? null;
    // An automatic answer continues a conversation at most; it never opens one.
    if (thread === null && auto) return { outcome: 'auto_reply_dropped' as const, businessId };
    await recordStoredFiles(tx, files);
    const stored = await receiveChannelMessage(tx, {
      businessId,
      channel: 'email',
      customerId: customer.id,
      conversationId: thread,
      openNew: true,
      chatGroupId: target.kind === 'inbox' ? target.inbox.chatGroupId : null,
      title: subject || '(no subject)',
      content: body.visible.slice(0, INBOUND_LIMITS.fullText) || '(no text)',
      spam: verdict.spam,
      metaData: {
        message_id: messageId,
        subject: forward ? forward.subject : mail.subject,
        from: customerAddress,
        ...(forward
          ? {
              forwarded: {
                by: from,
                note: forward.note.slice(0, INBOUND_LIMITS.fullText),
                via: forward.via,
                original_message_id: forward.messageId ? bracketed(forward.messageId) : null,
              },
            }
          : {}),
        to: mail.to,
        cc: mail.cc,
        reply_from: replyFrom,
        html: body.html,
        full_text: body.folded ? body.text.slice(0, INBOUND_LIMITS.fullText) : null,
        quoted_folded: body.folded,
        attachments,
        auth,
        spam: verdict.spam,
        spam_score: verdict.score,
        spam_reasons: verdict.reasons,
        auto_submitted: auto,
        size,
      },
      at: new Date(),
    });
    return { outcome: 'stored' as const, businessId, ...stored };
  });
}

/**
 * The original a forward carries, when the forward is one to take so: sent to an inbox address by a
 * member of the business, authenticated (SPF or DKIM passed) and not spam — parsing checked all
 * but membership (mail.forward is null otherwise). Null otherwise (then the mail is an ordinary one
 * from its sender).
 */
async function staffForward(
  deps: Pick<EmailDeps, 'db'>,
  target: InboundTarget,
  mail: ParsedInbound,
): Promise<ParsedInbound['forward']> {
  const original = mail.forward;
  if (target.kind !== 'inbox' || !original) return null;
  const members = await findMembers(deps.db, target.inbox.businessId);
  if (!members.some((m) => m.user.email.toLowerCase() === mail.from)) return null;
  // A forward of the member's own mail, or of mail from an inbox address, is no customer's.
  if (original.from === mail.from || (await repo.findInboxByAddress(deps.db, original.from))) return null;
  return original;
}
