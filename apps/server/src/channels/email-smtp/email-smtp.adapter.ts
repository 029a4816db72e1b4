// Email over SMTP (engage.md §2): one pooled nodemailer transport per process through SMTP_URL,
// or — without it, outside production on a loopback bind — the development outbox (the same
// storage as account mail, platform/mailer.ts). Each message is DKIM-signed with its domain's
// key, carries Titan's Message-ID, a VERP envelope sender and the List-Unsubscribe headers the
// sending module built; SMTP replies are classified transient (4xx, throttling, connection loss)
// or permanent (5xx), with the server's own words kept.
import { availableParallelism } from 'node:os';
import nodemailer from 'nodemailer';
import type { ChannelAdapter, SendOutcome } from '../channel';
import {
  deliverOver,
  mailOptions,
  messageBuilder,
  pooledSmtp,
  type EmailPayload,
} from './email-smtp.message';
import { SmtpThreads } from './smtp-threads';

export { DKIM_HEADER_FIELDS, type EmailPayload } from './email-smtp.message';

/** Where mail goes: a mail server, or the development outbox. */
export type EmailTransport = {
  readonly kind: 'smtp' | 'outbox';
  deliver(payload: EmailPayload): Promise<{ response: string }>;
  close(): void;
};

export type EmailSmtpAccount = { transport: EmailTransport };

/**
 * SMTP through `url` with pooled connections: one per process, shared by every send. With
 * `threads` (default: one per core, at most 4), messages are built, signed and sent by SMTP
 * threads (smtp-threads.ts), the connections shared out among them; 0 keeps it all on this thread.
 */
export function smtpTransport(
  url: string,
  options: { maxConnections?: number; threads?: number } = {},
): EmailTransport {
  const maxConnections = options.maxConnections ?? 10;
  const threads = options.threads ?? defaultSmtpThreads();
  if (threads > 0) {
    const pool = new SmtpThreads(url, { threads, maxConnections });
    return {
      kind: 'smtp',
      deliver: async (payload) => ({ response: await pool.send(payload) }),
      close: () => pool.close(),
    };
  }
  const transporter = pooledSmtp(url, maxConnections);
  const builder = messageBuilder();
  return {
    kind: 'smtp',
    deliver: async (payload) => ({ response: await deliverOver(transporter, builder, payload) }),
    close: () => transporter.close(),
  };
}

/** One SMTP thread per core, at most 4. */
export function defaultSmtpThreads(): number {
  return Math.min(4, availableParallelism());
}

/**
 * The development outbox: the message is built exactly as for SMTP (signed, with its headers),
 * then kept where the person running Titan reads their mail (`keep`, the Mailer's outbox).
 */
export function outboxTransport(
  keep: (mail: { to: string; subject: string; text: string; html: string }) => Promise<void>,
): EmailTransport {
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    kind: 'outbox',
    async deliver(payload) {
      await builder.sendMail(mailOptions(payload));
      await keep({ to: payload.to, subject: payload.subject, text: payload.text, html: payload.html ?? '' });
      return { response: '250 Kept in the development outbox' };
    },
    close: () => builder.close(),
  };
}

const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNECTION',
  'ESOCKET',
  'EDNS',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

type SmtpError = Error & { code?: string; responseCode?: number; response?: string; command?: string };

/** A failure as the adapter sees it: transient ones are worth another attempt later. */
export function classifySmtpError(err: unknown): {
  transient: boolean;
  code: string | null;
  words: string;
} {
  const e = (err ?? {}) as SmtpError;
  const words = (e.response ?? e.message ?? String(err)).trim();
  if (typeof e.responseCode === 'number') {
    return { transient: e.responseCode < 500, code: String(e.responseCode), words };
  }
  const code = typeof e.code === 'string' ? e.code : null;
  const transient = (code !== null && TRANSIENT_CODES.has(code)) || /throttl|try again|too many/i.test(words);
  return { transient, code, words };
}

/** Is this failed outcome worth another attempt (a deferral, not a refusal)? */
export function isTransient(outcome: Extract<SendOutcome, { ok: false }>): boolean {
  return outcome.response?.transient === true;
}

function describe(code: string | null, words?: string | null): string {
  const said = words ? `: ${words}` : '.';
  if (code && /^5\d\d$/.test(code)) return `The mail server refused the message${said}`;
  if (code && /^4\d\d$/.test(code)) return `The mail server deferred the message${said}`;
  if (code && TRANSIENT_CODES.has(code)) return `The mail server could not be reached${said}`;
  if (code === 'EAUTH') return `The mail server refused Titan's credentials (SMTP_URL)${said}`;
  return `The message could not be sent${said}`;
}

export const emailSmtp: ChannelAdapter<EmailSmtpAccount, EmailPayload> = {
  async send({ transport }, payload): Promise<SendOutcome> {
    try {
      const { response } = await transport.deliver(payload);
      return { ok: true, providerMessageId: payload.messageId, response: { smtp_response: response } };
    } catch (err) {
      const { transient, code, words } = classifySmtpError(err);
      return {
        ok: false,
        errorCode: code,
        errorMessage: describe(code, words),
        response: { transient, smtp_response: words },
        cause: err,
      };
    }
  },
  /** SMTP reports nothing back on the connection: bounces and complaints arrive by mail (bounces.ts). */
  parseEvents: () => [],
  describeError: (code, fallback) => describe(code, fallback),
};
