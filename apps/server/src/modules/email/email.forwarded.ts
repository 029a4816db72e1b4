// Forwarded mail (issue 30): a staff member forwards a customer's mail to an inbox address and the
// inbox opens (or continues) a conversation with the original sender, not with the staff member.
// The original is read from the forward as clients send it: attached whole (message/rfc822: found by
// postal-mime told to keep such a part apart, then parsed by postal-mime like any mail) or quoted inline under a "Forwarded message" header block (parsed by
// email-forward-parser, which knows Gmail, Outlook, Apple Mail, Thunderbird, Yahoo and others in
// two dozen locales). Only a forward from a member of the business, whose mail authenticated (SPF
// or DKIM passed, not spam), is taken so: anyone else's "Fwd:" is an ordinary mail from them.
import EmailForwardParser from 'email-forward-parser';
import PostalMime from 'postal-mime';

export type ForwardedOriginal = {
  from: string;
  name: string | null;
  subject: string;
  text: string;
  html: string | null;
  messageId: string | null;
  /** What the staff member wrote above the forward. */
  note: string;
  via: 'attachment' | 'inline';
};

const FORWARD_SUBJECT = /^\s*(fwd?|fw|wg|tr|rv|i|doorst|vs|vl|enc)\s*:/i;
const ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** What the forward's own parse said: its subject and text. */
type OuterMail = { subject?: string; text?: string };

/** Whether a mail presents itself as a forward (subject prefix, or a mail attached whole). */
export function looksForwarded(mail: OuterMail, raw: Buffer): boolean {
  return (
    FORWARD_SUBJECT.test(mail.subject ?? '') ||
    /content-type:\s*message\/rfc822/i.test(raw.toString('latin1'))
  );
}

/** The forwarded original with its sender, or null when the forward does not carry one. */
export async function forwardedOriginal(mail: OuterMail, raw: Buffer): Promise<ForwardedOriginal | null> {
  const outer = await PostalMime.parse(raw, {
    forceRfc822Attachments: true,
    attachmentEncoding: 'arraybuffer',
  });
  const attached = outer.attachments.find((a) => a.mimeType.toLowerCase() === 'message/rfc822');
  if (attached) {
    const bytes = attached.content;
    const inner = await PostalMime.parse(
      typeof bytes === 'string' ? Buffer.from(bytes, 'base64') : new Uint8Array(bytes),
      { attachmentEncoding: 'arraybuffer' },
    );
    const sender = inner.from?.group ? inner.from.group[0] : inner.from;
    const address = sender?.address?.trim().toLowerCase();
    if (address && ADDRESS.test(address))
      return {
        from: address,
        name: sender?.name?.trim() || null,
        subject: inner.subject?.trim() ?? '',
        text: inner.text ?? '',
        html: inner.html ?? null,
        messageId: inner.messageId?.trim() || null,
        note: (outer.text ?? '').trim(),
        via: 'attachment',
      };
  }
  const parsed = new EmailForwardParser().read(mail.text ?? '', mail.subject ?? '');
  const address = parsed.email?.from?.address?.trim().toLowerCase();
  if (!parsed.forwarded || !address || !ADDRESS.test(address)) return null;
  return {
    from: address,
    name: parsed.email.from.name?.trim() || null,
    subject: parsed.email.subject ?? (mail.subject ?? '').replace(FORWARD_SUBJECT, '').trim(),
    text: (parsed.email.body ?? '').trim(),
    html: null,
    messageId: null,
    note: (parsed.message ?? '').trim(),
    via: 'inline',
  };
}
