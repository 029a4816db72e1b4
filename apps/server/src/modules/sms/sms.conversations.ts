// SMS conversations (next-api.md "Every channel in the inbox"): staff answer an SMS conversation
// from the composer, and the reply leaves as any text does — recorded on the send spine, then posted
// to Twilio by the `sms.send` job. A reply to a number that said STOP (or is otherwise on the
// suppression list) is refused with the reason before anything is written; Twilio is never called.
import { MMS_MAX_BYTES, MMS_TYPES, SMS_BODY_MAX, type TSendMessageRequest } from '@titan/contracts';
import { advisoryLock } from '../../db/sql';
import { AppError } from '../../platform/errors';
import { phoneForStorage } from '../../platform/phone-numbers';
import type { Storage } from '../../platform/storage';
import type { ChannelReplier, PreparedReply, ReplyTarget } from '../conversations';
import { findBusinessById } from '../business';
import { adoptSuppressions } from '../consent';
import * as directory from '../directory';
import { findBusinessFile } from '../files';
import { findSuppression } from '../suppressions';
import type { SmsDeps } from './sms.account';
import { buildSmsSend, enqueueSmsSends, resolveRecipient, smsContext } from './sms.service';

export const SMS_REPLY_ERRORS = {
  noCustomer: 'This conversation has no customer to text.',
  textOnly: 'SMS replies are text: type the message instead of attaching a file.',
  tooLong: `An SMS reply is at most ${SMS_BODY_MAX.toLocaleString('en-US')} characters.`,
  unknownFile: 'Upload the picture first and send its key.',
  oneMedia: 'An SMS reply carries one picture at most.',
  notImage: 'MMS takes a JPEG, PNG or GIF picture.',
  mediaTooLarge: 'An MMS picture is at most 5 MB.',

  stopped: (number: string) =>
    `Not sent: ${number} replied STOP and no longer receives texts from this business. They can text START to receive them again.`,
  suppressed: (number: string, reason: string) =>
    `Not sent: ${number} is on the suppression list (${reason}).`,
} as const;

/** How long the picture's signed link lasts: Twilio fetches it when it sends, retries included. */
export const MMS_URL_TTL_SECONDS = 24 * 60 * 60;

/**
 * Staff replies on SMS conversations: the send is built here, recorded by the conversations module.
 * A picture (`attachment_ids`, one uploaded file) makes the reply an MMS: Twilio fetches it from a
 * signed link to the stored file (MediaUrl).
 */
export function smsReplier(deps: SmsDeps & { storage: Storage }): ChannelReplier {
  return {
    async prepare(target: ReplyTarget, input: TSendMessageRequest, userId): Promise<PreparedReply> {
      if (input.message_type !== 'text') throw AppError.fields({ content: [SMS_REPLY_ERRORS.textOnly] });
      if ([...input.content].length > SMS_BODY_MAX)
        throw AppError.fields({ content: [SMS_REPLY_ERRORS.tooLong] });
      const mediaKeys = input.attachment_ids ?? [];
      if (mediaKeys.length > 1) throw AppError.fields({ attachment_ids: [SMS_REPLY_ERRORS.oneMedia] });
      const media = [];
      for (const key of mediaKeys) {
        const file = await findBusinessFile(deps.db, target.businessId, key);
        if (!file) throw AppError.fields({ attachment_ids: [SMS_REPLY_ERRORS.unknownFile] });
        if (!(MMS_TYPES as readonly string[]).includes(file.mimeType))
          throw AppError.fields({ attachment_ids: [SMS_REPLY_ERRORS.notImage] });
        if (file.size > MMS_MAX_BYTES)
          throw AppError.fields({ attachment_ids: [SMS_REPLY_ERRORS.mediaTooLarge] });
        media.push({ key: file.key, file_name: file.fileName, mime_type: file.mimeType, size: file.size });
      }
      if (target.initiatorId === null) throw new AppError('conflict', SMS_REPLY_ERRORS.noCustomer);
      const recipient = await resolveRecipient(deps, target.businessId, { customerId: target.initiatorId });
      const suppression = await findSuppression(deps.db, target.businessId, 'sms', recipient.number);
      if (suppression) {
        const reason =
          suppression.reason === 'unsubscribed'
            ? SMS_REPLY_ERRORS.stopped(recipient.number)
            : SMS_REPLY_ERRORS.suppressed(recipient.number, suppression.reason);
        throw new AppError('conflict', reason, { content: [reason] });
      }
      const ctx = await smsContext(deps, { businessId: target.businessId });
      const send = buildSmsSend(
        ctx,
        { businessId: target.businessId, body: input.content, cause: 'staff_reply', createdBy: userId },
        recipient,
      );
      if (media.length) {
        const urls = await Promise.all(
          media.map((m) => deps.storage.signedUrl(m.key, m.file_name, MMS_URL_TTL_SECONDS)),
        );
        send.providerRequest = { ...send.providerRequest, MediaUrl: urls };
      }
      return {
        send,
        content: input.content,
        metaData: {
          to: recipient.number,
          sms: send.cost,
          ...(media.length ? { mms: true, attachments: media } : {}),
        },
      };
    },
    async customerOf(businessId, who) {
      if ('customerId' in who) return directory.customerToWrite(deps.db, businessId, who.customerId);
      const business = await findBusinessById(deps.db, businessId);
      const number = phoneForStorage(who.to, business?.dialCode, 'to')!;
      return deps.db.transaction(async (tx) => {
        // The lock inbound texts from this number take: one customer, whoever writes first.
        await advisoryLock(tx, `sms:${businessId}:${number}`);
        const [known] = await directory.findCustomersByPhone(tx, businessId, number);
        if (known) return known;
        const customer = await directory.insertCustomer(tx, { businessId, phone: number });
        await adoptSuppressions(tx, businessId, [customer.id]);
        return customer;
      });
    },
    dispatch: (sendIds) => enqueueSmsSends(deps.jobs, sendIds),
  };
}
