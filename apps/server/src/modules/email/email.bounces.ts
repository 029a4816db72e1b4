// What comes back to a send's VERP address (engage.md §2): delivery status notifications
// (RFC 3464, multipart/report; report-type=delivery-status), bounces written for people only
// (qmail, Exim, older Gmail, Exchange 2003: email.bounce-text.ts) and complaint reports (RFC 5965,
// multipart/report; report-type=feedback-report); and mail to its mailto: unsubscribe address.
// The addresses are signed (unsubscribe-tokens.ts), and a report counts only when it is about the
// send: its recipient and the original Message-ID must be the send's, else it is ignored (logged).
// A hard bounce (5.x.x) marks the send `bounced` with the server's diagnostic and suppresses the
// address; a soft one (4.x.x, delayed, or a full mailbox: X.2.2 and X.3.1 are "persistent
// transient" in RFC 3463) is kept as an event; a complaint marks it `complained` and suppresses.

import type { Db } from '../../db/client';
import * as sends from '../sends';
import { findSendById, type SendRow } from '../sends';
import { optOut } from '../consent';
import type { UnsubscribeTokens, VerpKind } from './unsubscribe-tokens';
import { parseTextBounce } from './email.bounce-text';
import { unsubscribeSend } from './email.unsubscribe';
import { lazy } from '../../platform/lazy';

/** mailparser (~5 MB of heap) only in a process that receives a bounce report. */
const mailparser = lazy(() => import('mailparser'));

export type VerpAddress = { kind: VerpKind; sendId: string };

/** The kind and send id of a signed VERP or unsubscribe address; null for any other address. */
export function parseVerpAddress(tokens: UnsubscribeTokens, address: string): VerpAddress | null {
  return tokens.verifyVerp(address);
}

/** Is this a known email send (the listener takes mail only for those)? */
export async function isKnownSend(db: Db, sendId: string): Promise<boolean> {
  const send = await findSendById(db, sendId);
  return send?.channel === 'email';
}

export type DsnRecipient = {
  finalRecipient: string | null;
  originalRecipient: string | null;
  action: string | null;
  status: string | null;
  diagnosticCode: string | null;
};

export type InboundReport =
  | {
      kind: 'dsn';
      /** `rfc3464`, or the layout of a bounce written for people only. */
      format: 'rfc3464' | 'qmail' | 'exim' | 'gmail' | 'exchange';
      reportingMta: string | null;
      recipients: DsnRecipient[];
      /** The Message-ID of the mail it is about (returned headers, or Original-Message-ID). */
      originalMessageId: string | null;
    }
  | {
      kind: 'complaint';
      feedbackType: string | null;
      userAgent: string | null;
      originalRcptTo: string | null;
      originalMessageId: string | null;
    }
  | { kind: 'other' };

/** RFC 822-style field groups (blank-line separated), unfolded, names lower-cased. */
export function fieldGroups(text: string): Record<string, string>[] {
  return text
    .replace(/\r\n/g, '\n')
    .split(/\n\s*\n/)
    .map((block) => {
      const fields: Record<string, string> = {};
      let last: string | null = null;
      for (const line of block.split('\n')) {
        if (/^[ \t]/.test(line) && last) fields[last] += ` ${line.trim()}`;
        else {
          const i = line.indexOf(':');
          if (i <= 0) continue;
          last = line.slice(0, i).trim().toLowerCase();
          fields[last] = line.slice(i + 1).trim();
        }
      }
      return fields;
    })
    .filter((f) => Object.keys(f).length > 0);
}

/** `rfc822; a@b` → `a@b`; `smtp; 550 5.1.1 …` → `550 5.1.1 …`. */
const typed = (v: string | undefined) => (v ? v.replace(/^[\w-]+;\s*/, '') : null);

/** A MIME part's headers (unfolded, lower-cased names) and body. */
type Part = { headers: Record<string, string>; body: string };

function splitPart(text: string): Part {
  const end = text.search(/\r?\n\r?\n/);
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end).replace(/^\r?\n\r?\n/, '');
  return { headers: fieldGroups(head)[0] ?? {}, body };
}

const boundaryOf = (contentType: string | undefined) =>
  /boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i
    .exec(contentType ?? '')
    ?.slice(1)
    .find(Boolean) ?? null;

function decode(part: Part): string {
  const cte = (part.headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (cte === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (cte === 'quoted-printable') {
    return part.body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
  return part.body;
}

/**
 * The body of the first part of a type in `wanted` in a (possibly nested) multipart message.
 * mailparser folds message/delivery-status into the text, so the report's parts are found here.
 */
export function findPart(raw: string, wanted: string[], depth = 0): string | null {
  const top = splitPart(raw);
  const type = (top.headers['content-type'] ?? 'text/plain').toLowerCase();
  if (depth > 0 && wanted.some((w) => type.startsWith(w))) return decode(top);
  const boundary = boundaryOf(top.headers['content-type']);
  if (!type.startsWith('multipart/') || !boundary || depth > 3) return null;
  for (const piece of top.body.split(`--${boundary}`).slice(1)) {
    if (piece.startsWith('--')) break;
    const found = findPart(piece.replace(/^\r?\n/, ''), wanted, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** Parts that carry the returned message or its headers (RFC 3462, RFC 6533). */
const RETURNED = ['text/rfc822-headers', 'message/rfc822', 'message/global-headers'];

/**
 * The Message-ID of the mail a report is about: from the returned headers or message, else an
 * Original-Message-ID field, else the first Message-ID line of a copy of the message quoted in
 * the report's body (plain-text bounces quote it after their explanation).
 */
function originalMessageIdOf(text: string, reportFields: Record<string, string>[]): string | null {
  const returned = findPart(text, RETURNED);
  const fromReturned = returned !== null ? (fieldGroups(returned)[0]?.['message-id'] ?? null) : null;
  const original = reportFields.map((f) => f['original-message-id']).find(Boolean) ?? null;
  const headerEnd = text.search(/\r?\n\r?\n/);
  const body = headerEnd === -1 ? '' : text.slice(headerEnd);
  const quoted = /^message-id:[ \t]*(?:\r?\n[ \t]+)?(<[^<>\s]+>)/im.exec(body)?.[1] ?? null;
  const id = fromReturned ?? original ?? quoted;
  return id ? id.trim() : null;
}

/** Reads a DSN, a plain-text bounce or an ARF report out of a raw message (else `other`). */
export async function parseInboundReport(raw: Buffer): Promise<InboundReport> {
  // mailparser reads the top-level headers (encodings, folding); the parts are walked below.
  const mail = await (
    await mailparser()
  ).simpleParser(raw, { skipHtmlToText: true, skipTextLinks: true, skipImageLinks: true });
  const type = mail.headers.get('content-type') as
    { value?: string; params?: Record<string, string> } | undefined;
  const reportType = type?.params?.['report-type']?.toLowerCase();
  const text = raw.toString('utf8');
  const status = findPart(text, ['message/delivery-status', 'message/global-delivery-status']);
  if (status !== null || reportType === 'delivery-status') {
    const groups = fieldGroups(status ?? '');
    const perMessage = groups[0] ?? {};
    const recipients = groups
      .filter((g) => g['action'] !== undefined || g['final-recipient'] !== undefined)
      .map((g) => ({
        finalRecipient: typed(g['final-recipient']),
        originalRecipient: typed(g['original-recipient']),
        action: g['action']?.toLowerCase() ?? null,
        status: g['status']?.split(/\s/)[0] ?? null,
        diagnosticCode: typed(g['diagnostic-code']),
      }));
    return {
      kind: 'dsn',
      format: 'rfc3464',
      reportingMta: typed(perMessage['reporting-mta']),
      recipients,
      originalMessageId: originalMessageIdOf(text, groups),
    };
  }
  const feedback = findPart(text, ['message/feedback-report']);
  if (feedback !== null || reportType === 'feedback-report') {
    const fields = fieldGroups(feedback ?? '')[0] ?? {};
    return {
      kind: 'complaint',
      feedbackType: fields['feedback-type']?.toLowerCase() ?? null,
      userAgent: fields['user-agent'] ?? null,
      originalRcptTo: fields['original-rcpt-to'] ?? null,
      originalMessageId: originalMessageIdOf(text, [fields]),
    };
  }
  const plain = parseTextBounce(mail.text ?? '');
  if (plain) {
    const code = enhancedCode(plain.diagnostic);
    const basic = /^\s*([245])\d\d\b/.exec(plain.diagnostic ?? '')?.[1];
    const klass = code?.[0] ?? basic ?? (plain.permanent ? '5' : '4');
    return {
      kind: 'dsn',
      format: plain.format,
      reportingMta: null,
      recipients: [
        {
          finalRecipient: plain.recipient,
          originalRecipient: null,
          action: klass === '4' || !plain.permanent ? 'delayed' : 'failed',
          status: code ?? `${klass}.0.0`,
          diagnosticCode: plain.diagnostic,
        },
      ],
      originalMessageId: originalMessageIdOf(text, []),
    };
  }
  return { kind: 'other' };
}

/** The first enhanced status code (RFC 3463) in a server's words: `5.1.1` in "550 5.1.1 …", "#5.1.1". */
function enhancedCode(words: string | null): string | null {
  return /(?:^|[\s#(-])([245]\.\d{1,3}\.\d{1,3})(?![.\d])/.exec(words ?? '')?.[1] ?? null;
}

/**
 * What a report says about its recipient: hard (never mail it again), soft (a failure that may
 * pass: 4.x.x, delayed, or a full mailbox), or delivered. A generic status (X.0.0) gives way to
 * the specific one in the server's words ("552 5.2.2 Mailbox full" under Status: 5.0.0).
 */
export function bounceClass(rcpt: Pick<DsnRecipient, 'action' | 'status' | 'diagnosticCode'>) {
  if (rcpt.action === 'delivered' || rcpt.action === 'relayed' || rcpt.action === 'expanded')
    return 'delivered' as const;
  if (rcpt.action !== 'failed') return 'soft' as const;
  const fromWords = enhancedCode(rcpt.diagnosticCode);
  const status = rcpt.status && !/^\d\.0\.0$/.test(rcpt.status) ? rcpt.status : (fromWords ?? rcpt.status);
  if (status) {
    if (status.startsWith('4')) return 'soft' as const;
    // RFC 3463: mailbox full (X.2.2) and mail system full (X.3.1) are persistent transient failures.
    if (/^5\.(2\.2|3\.1)$/.test(status)) return 'soft' as const;
    if (!/^5\.0\.0$/.test(status)) return 'hard' as const;
  }
  // No specific code: the server's basic reply (552 "exceeded storage allocation" passes too).
  const basic = /^\s*(\d{3})\b/.exec(rcpt.diagnosticCode ?? '')?.[1];
  if (basic && (basic.startsWith('4') || basic === '552')) return 'soft' as const;
  return 'hard' as const;
}

export type BounceDeps = { db: Db; tokens: UnsubscribeTokens };

/** What one inbound message to a VERP address did to its send. */
export type InboundOutcome =
  'bounced' | 'soft_bounce' | 'delivered' | 'complained' | 'unsubscribed' | 'ignored' | 'unmatched';

export type InboundResult = { outcome: InboundOutcome; detail?: string };

/** An address as reports write it (`<A@B>`, `rfc822; a@b`), for comparison. */
const addressKey = (v: string | null | undefined) =>
  (v ?? '')
    .replace(/^[\w-]+;\s*/, '')
    .replace(/^<(.*)>$/, '$1')
    .trim()
    .toLowerCase();
const messageIdKey = (v: string | null | undefined) => addressKey(v).replace(/^<|>$/g, '');

/** The Message-ID Titan gave the send's mail. */
function messageIdOf(send: SendRow): string | null {
  const fromRequest = send.providerRequest?.['message_id'];
  return typeof fromRequest === 'string' ? fromRequest : send.providerMessageId;
}

/**
 * Why a report is not about this send, or null when it is: the original Message-ID must be the
 * send's, and the recipient — every DSN recipient entry names one; a complaint only when it
 * gives Original-Rcpt-To (feedback loops often redact it) — must be the send's recipient.
 */
function mismatch(send: SendRow, report: Exclude<InboundReport, { kind: 'other' }>): string | null {
  const expected = messageIdOf(send);
  if (!report.originalMessageId) return 'the report does not give the original Message-ID';
  if (!expected || messageIdKey(report.originalMessageId) !== messageIdKey(expected))
    return `the report is about another message (${report.originalMessageId})`;
  const recipient = addressKey(send.recipient);
  if (report.kind === 'complaint') {
    if (report.originalRcptTo && addressKey(report.originalRcptTo) !== recipient)
      return 'the complaint names another recipient';
    return null;
  }
  const named = report.recipients.some(
    (r) => addressKey(r.finalRecipient) === recipient || addressKey(r.originalRecipient) === recipient,
  );
  return named ? null : 'the report names another recipient';
}

/**
 * Applies one message that arrived for `to` (a signed VERP or unsubscribe address). A report that
 * is not about the send (another Message-ID or recipient) changes nothing: `unmatched`.
 */
export async function applyInbound(deps: BounceDeps, to: VerpAddress, raw: Buffer): Promise<InboundResult> {
  const send = await findSendById(deps.db, to.sendId);
  if (!send || send.channel !== 'email') return { outcome: 'ignored', detail: 'no such email send' };
  if (to.kind === 'unsubscribe') {
    // The signed mailto: address is the credential, as the signed token of the one-click link is.
    await unsubscribeSend(deps, send, 'mailto');
    return { outcome: 'unsubscribed' };
  }
  const report = await parseInboundReport(raw);
  if (report.kind === 'other' || (report.kind === 'dsn' && report.recipients.length === 0)) {
    await sends.recordSendEvent(deps.db, {
      sendId: send.id,
      type: 'bounce_unreadable',
      raise: false,
      payload: { size: raw.length },
    });
    return { outcome: 'ignored', detail: 'not a report Titan can read' };
  }
  const wrong = mismatch(send, report);
  if (wrong) return { outcome: 'unmatched', detail: wrong };
  if (report.kind === 'complaint') {
    // The send's status and the suppression together, or neither.
    await deps.db.transaction(async (tx) => {
      await sends.recordSendEvent(tx, {
        sendId: send.id,
        type: 'complained',
        payload: { feedback_type: report.feedbackType, user_agent: report.userAgent },
      });
      await optOut(tx, {
        businessId: send.businessId,
        channel: 'email',
        address: send.recipient,
        reason: 'complained',
        sendId: send.id,
        detail: `Complaint (${report.feedbackType ?? 'abuse'})${report.userAgent ? ` from ${report.userAgent}` : ''}`,
      });
    });
    return { outcome: 'complained' };
  }
  // One send has one recipient: of the report's entries for it, the worst news decides.
  const recipient = addressKey(send.recipient);
  const mine = report.recipients.filter(
    (r) => addressKey(r.finalRecipient) === recipient || addressKey(r.originalRecipient) === recipient,
  );
  const rcpt =
    mine.find((r) => bounceClass(r) === 'hard') ??
    mine.find((r) => r.action === 'failed') ??
    mine.find((r) => r.action === 'delayed') ??
    mine[0]!;
  const payload = {
    action: rcpt.action,
    status: rcpt.status,
    diagnostic_code: rcpt.diagnosticCode,
    final_recipient: rcpt.finalRecipient,
    reporting_mta: report.reportingMta,
    format: report.format,
  };
  const kind = bounceClass(rcpt);
  if (kind === 'hard') {
    const message = rcpt.diagnosticCode ?? `Bounced (${rcpt.status ?? 'no status'})`;
    await deps.db.transaction(async (tx) => {
      await sends.recordSendEvent(tx, {
        sendId: send.id,
        type: 'bounced',
        payload,
        errorCode: rcpt.status,
        errorMessage: message,
      });
      await optOut(tx, {
        businessId: send.businessId,
        channel: 'email',
        address: send.recipient,
        reason: 'bounced',
        sendId: send.id,
        detail: message,
      });
    });
    return { outcome: 'bounced' };
  }
  if (kind === 'delivered') {
    await sends.recordSendEvent(deps.db, { sendId: send.id, type: 'delivered', payload });
    return { outcome: 'delivered' };
  }
  await sends.recordSendEvent(deps.db, { sendId: send.id, type: 'soft_bounce', raise: false, payload });
  return { outcome: 'soft_bounce' };
}
