// A real SMTP server (smtp-server) that accepts every message, parses it (mailparser) and keeps
// it in memory, so tests and developers can see exactly what Titan sent over the wire — raw bytes
// included (to verify DKIM). Switches make it behave like the receiving side of the internet for
// chosen addresses: bounce (a real RFC 3464 DSN sent back over SMTP to the Return-Path), complain
// (an RFC 5965 ARF report, likewise), or answer RCPT with a 4xx (a deferral, optionally only the
// first N times) or a 5xx (a refusal).
import { randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import nodemailer from 'nodemailer';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export type ReceivedMail = {
  envelope: { from: string | null; to: string[] };
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  /** The message exactly as it came over the wire (DKIM is verified over these bytes). */
  raw: Buffer;
  receivedAt: Date;
};

/**
 * What the sink does with mail to one address:
 * - `bounce`: accept, then send a DSN (Action: failed, Status 5.1.1) to the Return-Path;
 * - `soft-bounce`: accept, then send a DSN (Action: delayed, Status 4.4.1);
 * - `complain`: accept, then send an ARF abuse report to the Return-Path;
 * - `{ code, message, times? }`: answer RCPT with that reply (4xx defers, 5xx refuses), the first
 *   `times` attempts only when given (then accept).
 */
export type AddressBehavior =
  'accept' | 'bounce' | 'soft-bounce' | 'complain' | { code: number; message?: string; times?: number };

export type SentReport = { kind: 'dsn' | 'arf'; to: string; target: string; about: string };

export type SmtpSink = {
  port: number;
  url: string;
  messages: ReceivedMail[];
  /** Reports (DSNs, ARF) the sink sent back, and where. */
  reports: SentReport[];
  /** Resolves with the first message (already received or arriving later) that matches. */
  waitFor(match: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  /** Sets (or, with 'accept', clears) what the sink does with mail to `address`. */
  setBehavior(address: string, behavior: AddressBehavior): void;
  close(): Promise<void>;
};

export type SmtpSinkOptions = {
  port?: number;
  host?: string;
  /** When set, clients must authenticate with exactly these credentials. */
  auth?: { user: string; pass: string };
  onMail?: (mail: ReceivedMail) => void;
  /** Initial switches per address (see AddressBehavior). */
  behaviors?: Record<string, AddressBehavior>;
  /**
   * Where DSNs and complaint reports go, `host:port`; unset: the Return-Path's domain on port 25
   * (as a real mail server would find it). E.g. `127.0.0.1:2526` for Titan's BOUNCE_SMTP_PORT.
   */
  bounceTo?: string;
  onReport?: (report: SentReport) => void;
  onReportError?: (err: unknown) => void;
  /**
   * `crlf`: every line end of a message becomes CRLF (a bare CR or LF included) before it is kept,
   * as relays and mailbox providers rewrite them — what a DKIM verifier downstream then checks.
   * Unset: the bytes are kept exactly as they came.
   */
  lineEnds?: 'crlf';
};

const key = (address: string) => address.trim().toLowerCase();

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/** The headers of a message (up to the first blank line). */
function headerBlock(raw: Buffer): string {
  const text = raw.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}

const crlf = (lines: string[]) => lines.join('\r\n');

export function buildDsn(opts: {
  returnPath: string;
  recipient: string;
  original: Buffer;
  soft: boolean;
  reportingMta?: string;
}): string {
  const boundary = `dsn-${randomUUID()}`;
  const mta = opts.reportingMta ?? 'smtp-sink.localhost';
  const status = opts.soft ? '4.4.1' : '5.1.1';
  const diagnostic = opts.soft
    ? `smtp; 451 4.4.1 <${opts.recipient}>: connection timed out, will keep trying`
    : `smtp; 550 5.1.1 <${opts.recipient}>: Recipient address rejected: User unknown in local recipient table`;
  return crlf([
    `From: Mail Delivery System <MAILER-DAEMON@${mta}>`,
    `To: <${opts.returnPath}>`,
    `Subject: ${opts.soft ? 'Delayed Mail (still being retried)' : 'Undelivered Mail Returned to Sender'}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@${mta}>`,
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    opts.soft
      ? `Your message to <${opts.recipient}> has not been delivered yet; the mail system keeps trying.`
      : `Your message to <${opts.recipient}> could not be delivered: the address does not exist.`,
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    `Reporting-MTA: dns; ${mta}`,
    `Arrival-Date: ${new Date().toUTCString()}`,
    '',
    `Final-Recipient: rfc822; ${opts.recipient}`,
    `Original-Recipient: rfc822; ${opts.recipient}`,
    `Action: ${opts.soft ? 'delayed' : 'failed'}`,
    `Status: ${status}`,
    `Remote-MTA: dns; ${mta}`,
    `Diagnostic-Code: ${diagnostic}`,
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    headerBlock(opts.original),
    '',
    `--${boundary}--`,
    '',
  ]);
}

export function buildArf(opts: { returnPath: string; recipient: string; original: Buffer }): string {
  const boundary = `arf-${randomUUID()}`;
  return crlf([
    'From: Feedback Loop <fbl@smtp-sink.localhost>',
    `To: <${opts.returnPath}>`,
    'Subject: Abuse report (complaint)',
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${randomUUID()}@smtp-sink.localhost>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `A recipient (${opts.recipient}) marked this message as spam.`,
    '',
    `--${boundary}`,
    'Content-Type: message/feedback-report',
    '',
    'Feedback-Type: abuse',
    'User-Agent: titan-smtp-sink/1.0',
    'Version: 1',
    `Original-Mail-From: <${opts.returnPath}>`,
    `Original-Rcpt-To: <${opts.recipient}>`,
    `Arrival-Date: ${new Date().toUTCString()}`,
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    headerBlock(opts.original),
    '',
    `--${boundary}--`,
    '',
  ]);
}

/** Sends a report over SMTP from the null sender (<>), as mail systems do for DSNs. */
async function sendReport(target: string, to: string, raw: string): Promise<void> {
  const [host, port] = target.includes(':')
    ? [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))]
    : [target, 25];
  const transport = nodemailer.createTransport({ host, port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ envelope: { from: '', to: [to] }, raw });
  } finally {
    transport.close();
  }
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const reports: SentReport[] = [];
  const behaviors = new Map<string, AddressBehavior>(
    Object.entries(options.behaviors ?? {}).map(([a, b]) => [key(a), b]),
  );
  /** RCPT attempts answered with a reply so far, per address (for `times`). */
  const refusals = new Map<string, number>();
  const waiters = new Set<{ match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }>();

  const report = (kind: 'dsn' | 'arf', returnPath: string, recipient: string, raw: string) => {
    const target = options.bounceTo ?? returnPath.slice(returnPath.lastIndexOf('@') + 1);
    sendReport(target, returnPath, raw).then(
      () => {
        const sent = { kind, to: returnPath, target, about: recipient };
        reports.push(sent);
        options.onReport?.(sent);
      },
      (err: unknown) => options.onReportError?.(err),
    );
  };

  const serverOptions: SMTPServerOptions = {
    secure: false,
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) {
        callback(null, { user: auth.username });
      } else {
        callback(new Error('Invalid username or password'));
      }
    },
    onRcptTo(address, _session, callback) {
      const behavior = behaviors.get(key(address.address));
      if (behavior && typeof behavior === 'object') {
        const n = refusals.get(key(address.address)) ?? 0;
        if (behavior.times === undefined || n < behavior.times) {
          refusals.set(key(address.address), n + 1);
          const words =
            behavior.message ??
            (behavior.code < 500
              ? `${behavior.code} 4.7.1 <${address.address}>: Greylisted, please try again later`
              : `${behavior.code} 5.1.1 <${address.address}>: Mailbox does not exist`);
          return callback(smtpError(behavior.code, words.replace(/^\d{3}\s+/, '')));
        }
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err: Error) => callback(err));
      stream.on('end', () => {
        const received = Buffer.concat(chunks);
        const raw =
          options.lineEnds === 'crlf'
            ? Buffer.from(received.toString('latin1').replace(/\r\n|\r|\n/g, '\r\n'), 'latin1')
            : received;
        simpleParser(raw)
          .then((parsed) => {
            const mail: ReceivedMail = {
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              from: parsed.from?.text ?? '',
              to: Array.isArray(parsed.to)
                ? parsed.to.map((t) => t.text).join(', ')
                : (parsed.to?.text ?? ''),
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              headers: Object.fromEntries(
                parsed.headerLines.map((h) => [h.key, h.line.slice(h.line.indexOf(':') + 1).trim()]),
              ),
              raw,
              receivedAt: new Date(),
            };
            messages.push(mail);
            options.onMail?.(mail);
            for (const waiter of waiters) {
              if (waiter.match(mail)) {
                waiters.delete(waiter);
                waiter.resolve(mail);
              }
            }
            callback();
            // Accepted first, reported after: as a receiving system that finds out later does.
            const returnPath = mail.envelope.from;
            if (!returnPath) return;
            for (const rcpt of mail.envelope.to) {
              const behavior = behaviors.get(key(rcpt));
              if (behavior === 'bounce' || behavior === 'soft-bounce') {
                report(
                  'dsn',
                  returnPath,
                  rcpt,
                  buildDsn({ returnPath, recipient: rcpt, original: raw, soft: behavior === 'soft-bounce' }),
                );
              } else if (behavior === 'complain') {
                report('arf', returnPath, rcpt, buildArf({ returnPath, recipient: rcpt, original: raw }));
              }
            }
          })
          .catch((err: Error) => callback(err));
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const credentials = options.auth
    ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
    : '';
  return {
    port,
    url: `smtp://${credentials}${host}:${port}`,
    messages,
    reports,
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiters.add(waiter);
        setTimeout(() => {
          if (waiters.delete(waiter)) reject(new Error('no matching mail arrived in time'));
        }, timeoutMs).unref();
      });
    },
    setBehavior(address, behavior) {
      refusals.delete(key(address));
      if (behavior === 'accept') behaviors.delete(key(address));
      else behaviors.set(key(address), behavior);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
