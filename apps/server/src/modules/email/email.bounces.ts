// What comes back to a send's VERP address (engage.md §2): delivery status notifications
// (RFC 3464, multipart/report; report-type=delivery-status) and complaint reports (RFC 5965,
// multipart/report; report-type=feedback-report); and mail to its mailto: unsubscribe address.
// A hard bounce (action failed, status 5.x.x) marks the send `bounced` with the server's
// diagnostic and suppresses the address; a soft one (4.x.x, delayed) is kept as an event; a
// complaint marks it `complained` and suppresses.
import { simpleParser } from 'mailparser';
import type { Db } from '../../db/client';
import * as sends from '../sends/sends.service';
import { findSendById } from '../sends/sends.repository';
import { optOut } from '../consent/consent.service';
import type { UnsubscribeTokens } from './unsubscribe-tokens';
import { unsubscribeSend } from './email.unsubscribe';

/** `bounce+<send id>@…` and `unsubscribe+<send id>@…`: the local parts Titan's mail gives out. */
const VERP = /^(bounce|unsubscribe)\+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@/i;

export type VerpAddress = { kind: 'bounce' | 'unsubscribe'; sendId: string };

export function parseVerpAddress(address: string): VerpAddress | null {
  const m = VERP.exec(address.trim());
  if (!m) return null;
  return { kind: m[1]!.toLowerCase() as VerpAddress['kind'], sendId: m[2]!.toLowerCase() };
}

/** Is this a known email send (the listener takes mail only for those)? */
export async function isKnownSend(db: Db, sendId: string): Promise<boolean> {
  const send = await findSendById(db, sendId);
  return send?.channel === 'email';
}

export type DsnRecipient = {
  finalRecipient: string | null;
  action: string | null;
  status: string | null;
  diagnosticCode: string | null;
};

export type InboundReport =
  | { kind: 'dsn'; reportingMta: string | null; recipients: DsnRecipient[] }
  | {
      kind: 'complaint';
      feedbackType: string | null;
      userAgent: string | null;
      originalRcptTo: string | null;
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

/** Reads a DSN or an ARF report out of a raw message (anything else is `other`). */
export async function parseInboundReport(raw: Buffer): Promise<InboundReport> {
  // mailparser reads the top-level headers (encodings, folding); the parts are walked below.
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextLinks: true, skipImageLinks: true });
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
        finalRecipient: typed(g['final-recipient'] ?? g['original-recipient']),
        action: g['action']?.toLowerCase() ?? null,
        status: g['status']?.split(/\s/)[0] ?? null,
        diagnosticCode: typed(g['diagnostic-code']),
      }));
    return { kind: 'dsn', reportingMta: typed(perMessage['reporting-mta']), recipients };
  }
  const feedback = findPart(text, ['message/feedback-report']);
  if (feedback !== null || reportType === 'feedback-report') {
    const fields = fieldGroups(feedback ?? '')[0] ?? {};
    return {
      kind: 'complaint',
      feedbackType: fields['feedback-type']?.toLowerCase() ?? null,
      userAgent: fields['user-agent'] ?? null,
      originalRcptTo: fields['original-rcpt-to'] ?? null,
    };
  }
  return { kind: 'other' };
}

export type BounceDeps = { db: Db; tokens: UnsubscribeTokens };

/** What one inbound message to a VERP address did to its send. */
export type InboundOutcome =
  'bounced' | 'soft_bounce' | 'delivered' | 'complained' | 'unsubscribed' | 'ignored';

/** Applies one message that arrived for `to` (a VERP or unsubscribe address of a known send). */
export async function applyInbound(deps: BounceDeps, to: VerpAddress, raw: Buffer): Promise<InboundOutcome> {
  const send = await findSendById(deps.db, to.sendId);
  if (!send || send.channel !== 'email') return 'ignored';
  if (to.kind === 'unsubscribe') {
    await unsubscribeSend(deps, send, 'mailto');
    return 'unsubscribed';
  }
  const report = await parseInboundReport(raw);
  if (report.kind === 'complaint') {
    await sends.recordSendEvent(deps.db, {
      sendId: send.id,
      type: 'complained',
      payload: { feedback_type: report.feedbackType, user_agent: report.userAgent },
    });
    await optOut(deps.db, {
      businessId: send.businessId,
      channel: 'email',
      address: send.recipient,
      reason: 'complained',
      sendId: send.id,
      detail: `Complaint (${report.feedbackType ?? 'abuse'})${report.userAgent ? ` from ${report.userAgent}` : ''}`,
    });
    return 'complained';
  }
  if (report.kind !== 'dsn' || report.recipients.length === 0) {
    await sends.recordSendEvent(deps.db, {
      sendId: send.id,
      type: 'bounce_unreadable',
      raise: false,
      payload: { size: raw.length },
    });
    return 'ignored';
  }
  // One send has one recipient: the report's worst news for it decides.
  const rcpt =
    report.recipients.find((r) => r.action === 'failed') ??
    report.recipients.find((r) => r.action === 'delayed') ??
    report.recipients[0]!;
  const payload = {
    action: rcpt.action,
    status: rcpt.status,
    diagnostic_code: rcpt.diagnosticCode,
    final_recipient: rcpt.finalRecipient,
    reporting_mta: report.reportingMta,
  };
  const statusClass = rcpt.status?.[0];
  if (rcpt.action === 'failed' && statusClass !== '4') {
    const message = rcpt.diagnosticCode ?? `Bounced (${rcpt.status ?? 'no status'})`;
    await sends.recordSendEvent(deps.db, {
      sendId: send.id,
      type: 'bounced',
      payload,
      errorCode: rcpt.status,
      errorMessage: message,
    });
    await optOut(deps.db, {
      businessId: send.businessId,
      channel: 'email',
      address: send.recipient,
      reason: 'bounced',
      sendId: send.id,
      detail: message,
    });
    return 'bounced';
  }
  if (rcpt.action === 'delivered' || rcpt.action === 'relayed' || rcpt.action === 'expanded') {
    await sends.recordSendEvent(deps.db, { sendId: send.id, type: 'delivered', payload });
    return 'delivered';
  }
  await sends.recordSendEvent(deps.db, { sendId: send.id, type: 'soft_bounce', raise: false, payload });
  return 'soft_bounce';
}
