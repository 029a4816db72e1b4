// Outgoing mail: SMTP through nodemailer when SMTP_URL is set; otherwise, outside production and on
// a loopback bind, the development outbox (GET /api/dev/outbox/, printed to the log as well). A
// delivery that fails is retried from a job.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { TOutboxMail } from '@titan/contracts';
import { isLoopbackHost, type Config } from '../config';
import type { Db } from '../db/client';
import { insertOutboxMail, listOutboxMail } from './mailer.repository';
import type { Jobs } from './jobs';

export type Mail = { to: string; subject: string; text: string; html: string };

export const MAIL_RETRY_QUEUE = 'mail.retry';

export function extractLinks(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"')]+/g) ?? [])];
}

export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    private readonly config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'NODE_ENV' | 'HOST'>,
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly logger: Logger,
  ) {
    this.transport = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
    if (!this.transport && config.NODE_ENV === 'production') {
      logger.warn('SMTP_URL is not set: mail cannot be delivered in production');
    }
  }

  /**
   * The outbox holds sign-in and password reset links, so it exists only where nobody but the
   * person at this machine can reach Titan: no SMTP_URL, not production, and a loopback bind
   * (config refuses the other case; this keeps a hand-made config from opening it).
   */
  get usesOutbox(): boolean {
    return !this.transport && this.config.NODE_ENV !== 'production' && isLoopbackHost(this.config.HOST);
  }

  /** Where mail goes and who can read it, for the start-up log; never the SMTP credentials. */
  describeDelivery(publicUrl: string): string {
    if (this.config.SMTP_URL) {
      const server = new URL(this.config.SMTP_URL);
      return `Mail is sent through the SMTP server ${server.host} (SMTP_URL).`;
    }
    if (this.usesOutbox) {
      return (
        'Mail is not sent: it is kept in the development outbox, readable only on this machine — ' +
        `printed below as it is sent, and at ${publicUrl}/dev/outbox. Set SMTP_URL to send mail.`
      );
    }
    return 'Mail cannot be delivered: SMTP_URL is not set.';
  }

  async defineQueue(): Promise<void> {
    await this.jobs.define<Mail>({
      name: MAIL_RETRY_QUEUE,
      handler: (mail) => this.deliver(mail),
      retryLimit: 8,
      retryDelay: 30,
      retryBackoff: true,
    });
  }

  /** Sends now; if the mail server is unreachable the mail is queued and retried with backoff. */
  async send(mail: Mail): Promise<void> {
    try {
      await this.deliver(mail);
    } catch (err) {
      this.logger.warn({ err, subject: mail.subject }, 'mail delivery failed; queued for retry');
      await this.jobs.send(MAIL_RETRY_QUEUE, mail);
    }
  }

  private async deliver(mail: Mail): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.MAIL_FROM, ...mail });
      return;
    }
    if (!this.usesOutbox) throw new Error('no SMTP_URL configured');
    await this.keepInOutbox(mail);
  }

  /**
   * Keeps a mail in the development outbox (and prints it): account mail here, and the email
   * channel's mail when no SMTP_URL is set (channels/email-smtp). Only while `usesOutbox`.
   */
  async keepInOutbox(mail: Mail): Promise<void> {
    if (!this.usesOutbox)
      throw new Error('the development outbox is not in use (SMTP_URL is set, or production)');
    const links = extractLinks(mail.text);
    await insertOutboxMail(this.db, { ...mail, to: mail.to.toLowerCase(), links });
    // The person running Titan reads their verification mail here, without calling the API.
    this.logger.info(
      ['Mail kept in the development outbox', `  To:      ${mail.to}`, `  Subject: ${mail.subject}`]
        .concat(links.map((link) => `  Link:    ${link}`))
        .join('\n'),
    );
  }

  /** One address's mail, newest first; only meaningful while `usesOutbox`. */
  async listOutbox(to: string): Promise<TOutboxMail[]> {
    const rows = await listOutboxMail(this.db, to.toLowerCase(), 100);
    return rows.map((r) => ({
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      links: r.links,
      sent_at: r.sentAt.toISOString(),
    }));
  }
}
