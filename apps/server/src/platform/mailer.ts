// Outgoing mail: SMTP through nodemailer when SMTP_URL is set; otherwise, outside production,
// the development outbox (GET /api/dev/outbox/). A delivery that fails is retried from a job.
import { desc, eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { TOutboxMail } from '@titan/contracts';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { devOutbox } from '../db/schema';
import type { Jobs } from './jobs';

export type Mail = { to: string; subject: string; text: string; html: string };

export const MAIL_RETRY_QUEUE = 'mail.retry';

export function extractLinks(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"')]+/g) ?? [])];
}

export class Mailer {
  private readonly transport: Transporter | null;

  constructor(
    private readonly config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'NODE_ENV'>,
    private readonly db: Db,
    private readonly jobs: Jobs,
    private readonly logger: Logger,
  ) {
    this.transport = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : null;
    if (!this.transport && config.NODE_ENV === 'production') {
      logger.warn('SMTP_URL is not set: mail cannot be delivered in production');
    }
  }

  get usesOutbox(): boolean {
    return !this.transport && this.config.NODE_ENV !== 'production';
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
    if (this.config.NODE_ENV === 'production') throw new Error('no SMTP_URL configured');
    await this.db
      .insert(devOutbox)
      .values({ ...mail, to: mail.to.toLowerCase(), links: extractLinks(mail.text) });
  }

  /** Newest first; only meaningful while `usesOutbox`. */
  async listOutbox(to?: string): Promise<TOutboxMail[]> {
    const rows = await this.db
      .select()
      .from(devOutbox)
      .where(to ? eq(devOutbox.to, to.toLowerCase()) : undefined)
      .orderBy(desc(devOutbox.id))
      .limit(100);
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
