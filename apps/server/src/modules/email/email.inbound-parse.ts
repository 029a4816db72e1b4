// Inbound mail, the parsing half (issue 30): everything the listener learns from a message's bytes
// alone — its MIME (postal-mime: about half mailparser's CPU on a mail with an attachment; see
// docs/design/channel-conversations.md), its SPF/DKIM/DMARC results (mailauth, over DNS), its spam score,
// whether it is an auto-reply, the reply without its quoted history and signature
// (email-reply-parser's algorithm and patterns, email.reply-fold.ts), its HTML sanitised for display, its attachments, and the original a forward
// carries. It needs no database, so it runs in the inbound threads (email.inbound-threads.ts), off
// the thread that takes SMTP and writes the conversations; email.inbound.ts records the result.
import { Resolver } from 'node:dns/promises';

import PostalMime, { type Address, type Email } from 'postal-mime';
import sanitizeHtml from 'sanitize-html';
import type { Config } from '../../config';
import { forwardedOriginal, looksForwarded, type ForwardedOriginal } from './email.forwarded';
import { replyParserVisibleText } from './email.reply-fold';
import { spamScore, type SpamVerdict } from './email.spam';
import { textOf } from './email.text';
import { lazy } from '../../platform/lazy';

/** mailauth (~10 MB of heap) only in a process that receives mail. */
const mailauth = lazy(() => import('mailauth'));

export const INBOUND_LIMITS = {
  /** Bytes of one inbound message (body and attachments, as encoded on the wire). */
  size: 10 * 1024 * 1024,
  /** One attachment at most (the files module's limit for stored files). */
  attachmentBytes: 10 * 1024 * 1024,
  attachments: 20,
  /** Characters of the text kept whole (quoted history included) beside the visible reply. */
  fullText: 100_000,
} as const;

export type SmtpSessionFacts = { ip: string; helo: string; mailFrom: string };
export type DnsSettings = Pick<Config, 'DNS_SERVERS' | 'DNS_TIMEOUT_MS'>;
export type AuthSummary = { spf: string; dkim: string; dmarc: string; dkim_domains: string[] };

/** A text as the inbox shows it: the visible reply, the whole text, the sanitised HTML. */
export type ParsedBody = { text: string; visible: string; folded: boolean; html: string | null };

/** What parsing answers: plain data (it crosses from a thread by structured clone). */
export type ParsedInbound = {
  /** The From address, lower case ('' when the mail has none). */
  from: string;
  fromName: string | null;
  /** The Message-ID in angle brackets, or null. */
  messageId: string | null;
  subject: string;
  to: string[];
  cc: string[];
  /** The Message-IDs the mail answers (In-Reply-To, then References newest first). */
  answeredIds: string[];
  autoReply: boolean;
  auth: AuthSummary;
  verdict: SpamVerdict;
  body: ParsedBody;
  /** The attachments to store (within the limits; inline images of the HTML left out). */
  attachments: { filename: string; content: Uint8Array }[];
  /**
   * The original of a forward that may be taken as one (sent to an inbox address, authenticated,
   * not spam, carrying an original); whether its sender is a member is the recorder's to check.
   */
  forward: (Omit<ForwardedOriginal, 'text' | 'html'> & ParsedBody) | null;
};

/** mailauth's DNS lookups through the configured servers (DNS_SERVERS) with the configured timeout. */
export function mailauthResolver(config: DnsSettings) {
  const resolver = new Resolver({ timeout: config.DNS_TIMEOUT_MS, tries: 1 });
  if (config.DNS_SERVERS?.length) resolver.setServers(config.DNS_SERVERS);
  return (name: string, type: string) => resolver.resolve(name, type as 'TXT') as Promise<unknown>;
}

/** RFC 3834 and the headers autoresponders set in practice: an automatic message, not a person's. */
export function isAutoReply(mail: Pick<Email, 'headers'>, mailFrom: string): boolean {
  const has = (name: string) => mail.headers.some((h) => h.key === name);
  const header = (name: string) =>
    mail.headers
      .find((h) => h.key === name)
      ?.value.trim()
      .toLowerCase() ?? '';
  const autoSubmitted = header('auto-submitted');
  if (autoSubmitted && autoSubmitted !== 'no') return true;
  if (has('x-autoreply') || has('x-autorespond')) return true;
  if (['bulk', 'junk', 'auto_reply', 'list'].includes(header('precedence'))) return true;
  if (header('x-auto-response-suppress') && header('x-ms-exchange-generated-message-source')) return true;
  // A null reverse-path (MAIL FROM:<>) is a bounce or an automatic notice (RFC 5321 §4.5.5).
  return mailFrom === '';
}

/** `Re: Re: Fwd: Order 1042` → `Order 1042`: the subject a thread keeps. */
export function threadSubject(subject: string): string {
  let s = subject.trim();
  for (;;) {
    const next = s.replace(/^(re|fwd?|aw|sv|antw|wg|tr)\s*(\[\d+\])?\s*:\s*/i, '');
    if (next === s) return s.slice(0, 500);
    s = next;
  }
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'font', 'center', 'span'],
  allowedAttributes: {
    ...sanitizeHtml.defaults.allowedAttributes,
    '*': ['style', 'align', 'dir'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan', 'align', 'valign', 'width'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'width'],
    font: ['color', 'size', 'face'],
  },
  // Remote images stay out of the inbox (they tell the sender who read it, and when).
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesByTag: { img: ['cid', 'data'] },
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer nofollow' }),
  },
};

/** HTML as the inbox may show it: no scripts, handlers, forms, frames or remote images. */
export function sanitizeMailHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE);
}

/** The reply a person wrote, without the quoted history and the signature under it. */
export function visibleReply(text: string): { visible: string; folded: boolean } {
  const normalised = text.replace(/\r\n?/g, '\n');
  const visible = replyParserVisibleText(normalised).trim();
  if (!visible) return { visible: normalised.trim(), folded: false };
  return { visible, folded: visible !== normalised.trim() };
}

/** The mailboxes of an address header, groups opened. */
const mailboxesOf = (field: Address | Address[] | undefined): { name: string; address: string }[] =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => (a.group ? a.group : [a]));

const addressesOf = (field: Address | Address[] | undefined): string[] =>
  mailboxesOf(field)
    .map((v) => v.address?.trim().toLowerCase() ?? '')
    .filter(Boolean);

export const bracketed = (id: string) => (id.startsWith('<') ? id : `<${id}>`);

/** The Message-IDs a mail answers (In-Reply-To, then References newest first). */
function answeredIds(mail: Pick<Email, 'inReplyTo' | 'references'>): string[] {
  const ids = [
    ...(mail.inReplyTo ? mail.inReplyTo.trim().split(/\s+/) : []),
    ...(mail.references ? mail.references.trim().split(/\s+/) : []).reverse(),
  ];
  return [...new Set(ids.filter(Boolean).map(bracketed))].slice(0, 50);
}

/**
 * What mailauth needs to read of a message: all of it when the header carries a DKIM (or ARC)
 * signature, whose body hash covers the body; the header alone otherwise (SPF reads the session,
 * DMARC the From header and the signatures' results), so an unsigned mail's body is not
 * re-read, its line ends normalised and hashed for nothing (about 2 ms of CPU on the bench's
 * 270 KB mail). The results are the same either way.
 */
export function authenticatedPart(raw: Buffer): Buffer {
  let end = raw.indexOf('\r\n\r\n');
  let sep = 4;
  const lf = raw.indexOf('\n\n');
  if (lf !== -1 && (end === -1 || lf < end)) {
    end = lf;
    sep = 2;
  }
  if (end === -1) return raw;
  const header = raw.subarray(0, end + sep);
  return /^(dkim-signature|arc-[a-z-]+)\s*:/im.test(header.toString('latin1')) ? raw : header;
}

async function authenticateMail(
  dns: DnsSettings,
  raw: Buffer,
  session: SmtpSessionFacts,
): Promise<AuthSummary> {
  try {
    const result = await (
      await mailauth()
    ).authenticate(authenticatedPart(raw), {
      ip: session.ip,
      helo: session.helo,
      sender: session.mailFrom,
      mta: 'titan',
      disableArc: true,
      disableBimi: true,
      resolver: mailauthResolver(dns) as never,
    });
    const statusOf = (r: unknown): string =>
      r && typeof r === 'object' && 'status' in r
        ? String((r as { status?: { result?: string } }).status?.result ?? 'none')
        : 'none';
    const dkim = result.dkim?.results ?? [];
    const passing = dkim.filter((d) => d.status?.result === 'pass');
    return {
      spf: statusOf(result.spf),
      dkim:
        passing.length > 0 ? 'pass' : dkim.length > 0 ? String(dkim[0]!.status?.result ?? 'fail') : 'none',
      dmarc: statusOf(result.dmarc),
      dkim_domains: passing.map((d) => String(d.signingDomain ?? '')).filter(Boolean),
    };
  } catch {
    return { spf: 'temperror', dkim: 'temperror', dmarc: 'temperror', dkim_domains: [] };
  }
}

function bodyOf(text: string, sourceHtml: string | null): ParsedBody {
  const { visible, folded } = visibleReply(text);
  return { text, visible, folded, html: sourceHtml ? sanitizeMailHtml(sourceHtml) : null };
}

/**
 * Everything one message's bytes say. `toInbox`: whether it was sent to an inbox address (only
 * there is a member's forward taken as one).
 */
export async function parseInbound(
  raw: Buffer,
  session: SmtpSessionFacts,
  options: { toInbox: boolean; dns: DnsSettings },
): Promise<ParsedInbound> {
  const mail = await PostalMime.parse(raw, { attachmentEncoding: 'arraybuffer' });
  const sender = mailboxesOf(mail.from)[0];
  const from = addressesOf(mail.from)[0] ?? '';
  const subject = mail.subject?.trim() ?? '';
  const html = mail.html ?? null;
  // An HTML-only mail's text is the HTML's (what the reply folding and the spam phrases read).
  const text = mail.text ?? (html ? textOf(html) : '');
  const auth = await authenticateMail(options.dns, raw, session);
  const replyTo = mailboxesOf(mail.replyTo);
  const verdict = await spamScore(
    {
      subject,
      html: html ?? false,
      text,
      messageId: mail.messageId,
      from: sender ? { value: [sender] } : undefined,
      replyTo: replyTo.length ? { value: replyTo } : undefined,
      attachments: mail.attachments,
      hasDateHeader: mail.headers.some((h) => h.key === 'date'),
    },
    auth,
  );
  let forward: ParsedInbound['forward'] = null;
  if (
    options.toInbox &&
    from &&
    !verdict.spam &&
    (auth.spf === 'pass' || auth.dkim === 'pass') &&
    looksForwarded({ subject, text }, raw)
  ) {
    const original = await forwardedOriginal({ subject, text }, raw);
    if (original) {
      const { text: originalText, html: originalHtml, ...rest } = original;
      forward = {
        ...rest,
        ...bodyOf(originalText || (originalHtml ? textOf(originalHtml) : ''), originalHtml),
      };
    }
  }
  const attachments: ParsedInbound['attachments'] = [];
  for (const a of mail.attachments.slice(0, INBOUND_LIMITS.attachments)) {
    const content =
      typeof a.content === 'string'
        ? new Uint8Array(Buffer.from(a.content, a.encoding === 'base64' ? 'base64' : 'utf8'))
        : a.content instanceof Uint8Array
          ? a.content
          : new Uint8Array(a.content);
    if (content.byteLength === 0 || content.byteLength > INBOUND_LIMITS.attachmentBytes) continue;
    if (a.related && a.disposition !== 'attachment') continue;
    attachments.push({ filename: a.filename ?? 'attachment', content });
  }
  return {
    from,
    fromName: sender?.name?.trim() || null,
    messageId: mail.messageId?.trim() ? bracketed(mail.messageId.trim()) : null,
    subject,
    to: addressesOf(mail.to),
    cc: addressesOf(mail.cc),
    answeredIds: answeredIds(mail),
    autoReply: isAutoReply(mail, session.mailFrom),
    auth,
    verdict,
    // The visible reply of the mail itself is not needed when the forward's original is taken,
    // but whether it is taken is decided with the database (the sender a member): both are kept.
    body: bodyOf(text, html),
    attachments,
    forward,
  };
}
