// The inbound SMTP listener for what comes back (BOUNCE_SMTP_PORT): it takes mail only for the
// signed VERP, unsubscribe and reply addresses of known email sends and for the businesses' inbox
// addresses (anything else is refused at RCPT with 550), with no authentication, a size limit, few
// recipients per message and few connections per client. Reports are applied to their send
// (email.bounces.ts); replies and mail to an inbox address become conversation messages
// (email.inbound.ts), parsed in the inbound threads (email.inbound-threads.ts) so this thread only
// takes SMTP and records. A message is acknowledged (250) only once recorded; anything that fails
// before is answered 451 and the sender's server tries again. Runs only where workers run.
import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { Readable } from 'node:stream';
import { applyInbound, isKnownSend, parseVerpAddress } from './email.bounces';
import {
  inboxForAddress,
  INBOUND_LIMITS,
  receiveMail,
  sendForReply,
  type InboundTarget,
} from './email.inbound';
import type { ParsedInbound } from './email.inbound-parse';
import { InboundThreads } from './email.inbound-threads';
import type { EmailDeps } from './email.service';

export const BOUNCE_LIMITS = {
  /** Bytes of one report: a DSN carries the returned headers (or message); enough for both. */
  size: 5 * 1024 * 1024,
  /** Bytes of one message to a reply or inbox address (a person's mail, attachments included). */
  conversationSize: INBOUND_LIMITS.size,
  recipients: 20,
  connectionsPerClient: 10,
  clients: 200,
} as const;

export type BounceListener = { port: number; close(): Promise<void> };

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

async function readAll(stream: Readable, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > limit) over = true;
    else chunks.push(chunk as Buffer);
  }
  return over ? null : Buffer.concat(chunks);
}

/** What a recipient address is to the listener: a send's report address, or a conversation's. */
type Recipient = { kind: 'report'; verp: NonNullable<ReturnType<typeof parseVerpAddress>> } | InboundTarget;

async function recipientOf(deps: EmailDeps, address: string): Promise<Recipient | null> {
  const verp = parseVerpAddress(deps.tokens, address);
  if (verp?.kind === 'reply') {
    const send = await sendForReply(deps, verp.sendId);
    return send ? { kind: 'reply', send } : null;
  }
  if (verp) return (await isKnownSend(deps.db, verp.sendId)) ? { kind: 'report', verp } : null;
  const inbox = await inboxForAddress(deps, address);
  return inbox ? { kind: 'inbox', inbox } : null;
}

export async function startBounceListener(
  deps: EmailDeps,
  logger: Logger,
  options: { port: number; host: string },
): Promise<BounceListener> {
  const perClient = new Map<string, number>();
  // Each recipient is looked up once per message: at RCPT TO, kept on the message's envelope (the
  // server makes a new one for each message of a session) for DATA to use.
  const resolved = new WeakMap<object, Map<string, Recipient>>();
  // Mail to conversations is parsed in the inbound threads; this thread takes SMTP and records.
  const threads = new InboundThreads({
    dns: { DNS_SERVERS: deps.config.DNS_SERVERS, DNS_TIMEOUT_MS: deps.config.DNS_TIMEOUT_MS },
  });
  const server = new SMTPServer({
    name: 'titan-bounces',
    banner: 'Titan bounce and complaint processor',
    secure: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: BOUNCE_LIMITS.conversationSize,
    maxClients: BOUNCE_LIMITS.clients,
    socketTimeout: 60_000,
    closeTimeout: 5_000,
    logger: false,
    onConnect(session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const ip = session.remoteAddress;
      const n = (perClient.get(ip) ?? 0) + 1;
      if (n > BOUNCE_LIMITS.connectionsPerClient) {
        return callback(smtpError(421, '4.7.0 Too many connections from your address, try again later'));
      }
      perClient.set(ip, n);
      callback();
    },
    onClose(session: SMTPServerSession) {
      const ip = session.remoteAddress;
      const n = (perClient.get(ip) ?? 1) - 1;
      if (n <= 0) perClient.delete(ip);
      else perClient.set(ip, n);
    },
    onRcptTo(address: SMTPServerAddress, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      if (session.envelope.rcptTo.length >= BOUNCE_LIMITS.recipients) {
        return callback(smtpError(452, '4.5.3 Too many recipients'));
      }
      // Only addresses Titan signed (the unsigned ones of mail sent before signing are refused too),
      // and inbox addresses; any other is refused here, before the message is sent.
      const envelope = session.envelope;
      recipientOf(deps, address.address).then(
        (known) => {
          if (known) {
            const found = resolved.get(envelope) ?? new Map<string, Recipient>();
            found.set(address.address, known);
            resolved.set(envelope, found);
          }
          callback(known ? null : smtpError(550, '5.1.1 No such recipient here'));
        },
        (err: unknown) => {
          logger.error({ err }, 'inbound listener could not look up a recipient');
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
    onData(stream: Readable, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      const facts = {
        ip: session.remoteAddress,
        helo: session.hostNameAppearsAs ?? '',
        mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      };
      (async () => {
        const found = resolved.get(session.envelope);
        const recipients = (
          await Promise.all(
            session.envelope.rcptTo.map((r) => found?.get(r.address) ?? recipientOf(deps, r.address)),
          )
        ).filter((r): r is Recipient => r !== null);
        const conversational = recipients.some((r) => r.kind !== 'report');
        const limit = conversational ? BOUNCE_LIMITS.conversationSize : BOUNCE_LIMITS.size;
        const raw = await readAll(stream, limit);
        if (!raw || (stream as Readable & { sizeExceeded?: boolean }).sizeExceeded) {
          return callback(smtpError(552, '5.3.4 Message too big'));
        }
        // Parsed once for all its conversation addresses, off this thread; recorded before the 250.
        const parsed: ParsedInbound | null = conversational
          ? await threads.parse(raw, facts, { toInbox: recipients.some((r) => r.kind === 'inbox') })
          : null;
        for (const rcpt of recipients) {
          if (rcpt.kind === 'report') {
            const { outcome, detail } = await applyInbound(deps, rcpt.verp, raw);
            if (outcome === 'unmatched' || outcome === 'ignored')
              logger.warn({ send_id: rcpt.verp.sendId, outcome, detail }, 'inbound mail to a send ignored');
            else logger.info({ send_id: rcpt.verp.sendId, outcome }, 'inbound mail to a send applied');
            continue;
          }
          const result = await receiveMail(deps, rcpt, parsed!, raw.length);
          logger.info({ ...result, to: rcpt.kind }, 'inbound mail to a conversation address');
        }
        callback();
      })().catch((err: unknown) => {
        logger.error({ err }, 'inbound listener could not apply a message');
        callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
      });
    },
  });
  server.on('error', (err) => logger.error({ err }, 'bounce listener error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port, host: options.host }, 'bounce and complaint listener (SMTP) is running');
  return {
    port,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      threads.close();
    },
  };
}
