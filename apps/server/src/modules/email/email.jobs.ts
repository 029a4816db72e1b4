// The `email.send` job: claims a set of queued email sends in one statement, signs and hands each
// to the SMTP adapter over the process's pooled connections (all at once), and records each
// answer — accepted (`sent`, counted in email_count by the spine), deferred (back to `queued`, retried after a
// wait, bounded), or refused (`failed` with the server's words).
import type { Logger } from 'pino';
import type { SendOutcome } from '../../channels/channel';
import { emailSmtp, isTransient, type EmailPayload } from '../../channels/email-smtp/email-smtp.adapter';
import { HeapCeiling } from '../../platform/heap';
import type { Jobs } from '../../platform/jobs';
import * as sends from '../sends';
import type { SendRow } from '../sends';
import { EMAIL_ERRORS, EMAIL_SEND_QUEUE, parseFrom, type EmailDeps } from './email.service';
import { sendingIdentityFor, type SendingIdentity } from './sending-identity';

export type EmailSendJob = { send_ids: string[] };

/** What a send keeps for the mail server (email.service.ts writes it). */
type StoredMail = {
  from: string;
  to: string;
  subject: string;
  html: string | null;
  text: string;
  headers: Record<string, string>;
  message_id: string;
  envelope_from: string;
  /** A staff reply's copied addresses and attached files (email conversations). */
  cc?: string[];
  bcc?: string[];
  attachments?: { key: string; file_name: string; mime_type: string }[];
};

export const ATTACHMENT_GONE = (name: string) => `Not sent: the attached file ${name} is no longer stored.`;

/** The files a reply attaches, read from storage; the name of one that is gone otherwise. */
async function attachmentsOf(
  deps: EmailDeps,
  mail: StoredMail,
): Promise<{ files: NonNullable<EmailPayload['attachments']> } | { missing: string }> {
  const files: NonNullable<EmailPayload['attachments']> = [];
  for (const a of mail.attachments ?? []) {
    const content = await deps.storage.get(a.key);
    if (!content) return { missing: a.file_name };
    files.push({ filename: a.file_name, contentType: a.mime_type, content });
  }
  return { files };
}

/**
 * Identities looked up within the last minute, per business and From address: a bulk send asks
 * the domains module (and opens the sealed key) once, not per mail. A domain that stops being
 * verified stops sending within a minute.
 */
class IdentityCache {
  private readonly entries = new Map<string, { at: number; identity: Promise<SendingIdentity | null> }>();

  constructor(private readonly ttlMs = 60_000) {}

  get(deps: EmailDeps, businessId: number, address: string): Promise<SendingIdentity | null> {
    const key = `${businessId}:${address}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.identity;
    if (this.entries.size > 10_000) this.entries.clear();
    const identity = sendingIdentityFor(deps.db, deps.secrets, businessId, address);
    this.entries.set(key, { at: now, identity });
    identity.catch(() => this.entries.delete(key));
    return identity;
  }
}

const identities = new WeakMap<EmailDeps, IdentityCache>();
function identityCache(deps: EmailDeps): IdentityCache {
  let cache = identities.get(deps);
  if (!cache) identities.set(deps, (cache = new IdentityCache()));
  return cache;
}

/**
 * A bulk send's jobs each hold their claimed sends (every mail's HTML and text) across the SMTP
 * round trips, long enough to be promoted, then drop them: without a ceiling V8 let that garbage
 * lift the process by ~200 MiB over a 10,000-mail campaign before its next full collection (the
 * live heap stayed ~100 MiB). The heap may grow this much between collections while mail flows.
 */
const SEND_HEAP_HEADROOM_BYTES = 24 * 2 ** 20;
// One for the process, made when the module loads: its first check collects and sets the ceiling
// above what lives, where one first made mid-send would sit on top of the garbage already there.
const sendHeap = new HeapCeiling(SEND_HEAP_HEADROOM_BYTES);

/** Sends what is still queued of `sendIds`; the others were taken by another worker or are done. */
export async function runEmailSends(deps: EmailDeps, sendIds: string[]): Promise<void> {
  await sends.runClaimedSends(deps, 'email', sendIds, (send) => sendOne(deps, send));
  sendHeap.check();
}

/** One claimed send: the mail server's acceptance, or null (the failure is recorded here). */
async function sendOne(deps: EmailDeps, send: SendRow): Promise<Extract<SendOutcome, { ok: true }> | null> {
  const mail = send.providerRequest as unknown as StoredMail;
  const from = parseFrom(mail.from);
  const identity = await identityCache(deps).get(deps, send.businessId, from.address);
  if (!identity) {
    const domain = from.address.slice(from.address.lastIndexOf('@') + 1);
    await sends.recordFailed(deps.db, send.id, {
      errorCode: 'domain_unverified',
      errorMessage: EMAIL_ERRORS.domainLost(domain),
    });
    return null;
  }
  if (!deps.transport) {
    await sends.recordFailed(deps.db, send.id, {
      errorCode: 'no_mail_server',
      errorMessage: EMAIL_ERRORS.noMailServer,
    });
    return null;
  }
  const headers = { ...mail.headers };
  delete headers['Message-ID'];
  delete headers['Return-Path'];
  const attached = await attachmentsOf(deps, mail);
  if ('missing' in attached) {
    await sends.recordFailed(deps.db, send.id, {
      errorCode: 'attachment_gone',
      errorMessage: ATTACHMENT_GONE(attached.missing),
    });
    return null;
  }
  const payload: EmailPayload = {
    ...(mail.cc?.length ? { cc: mail.cc } : {}),
    ...(mail.bcc?.length ? { bcc: mail.bcc } : {}),
    ...(attached.files.length ? { attachments: attached.files } : {}),
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    headers,
    messageId: mail.message_id,
    envelopeFrom: mail.envelope_from,
    dkim: identity.dkim,
  };
  const outcome = await emailSmtp.send({ transport: deps.transport }, payload);
  if (outcome.ok) return outcome;
  if (isTransient(outcome)) {
    await sends.retryLater(deps, EMAIL_SEND_QUEUE, send.id, outcome, {
      delays: deps.config.EMAIL_RETRY_DELAYS_MS,
      gaveUp: EMAIL_ERRORS.gaveUp,
    });
    return null;
  }
  await sends.recordFailed(deps.db, send.id, outcome);
  return null;
}

/**
 * `email.send` jobs a process runs at once: 2 × EMAIL_JOB_CHUNK (100) mails in flight keep the
 * pooled connections (10) busy. More only waits longer in the SMTP threads' queues — each waiting
 * mail held, built and signed, across scavenges, so promoted and collected in full later: at 8
 * (400 in flight) a 10,000-mail campaign cost Titan 11–16% more CPU a mail (bench/README.md,
 * campaign-send), at no gain in mails/s.
 */
export const EMAIL_JOB_CONCURRENCY = 2;

export async function defineEmailQueues(jobs: Jobs, deps: EmailDeps, logger: Logger): Promise<void> {
  await jobs.define<EmailSendJob>({
    name: EMAIL_SEND_QUEUE,
    handler: (data) => runEmailSends(deps, data.send_ids ?? []),
    // A failed job (the database gone mid-chunk) is run again: claims make that safe, and what it
    // left `sending` is resolved by the spine's recovery.
    retryLimit: 3,
    retryDelay: 5,
    retryBackoff: true,
    concurrency: EMAIL_JOB_CONCURRENCY,
    pollingIntervalSeconds: 0.5,
  });
  logger.debug({ queue: EMAIL_SEND_QUEUE }, 'email queue defined');
}
