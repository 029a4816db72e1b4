// The inbound SMTP listener for what comes back (BOUNCE_SMTP_PORT): it takes mail only for the
// signed VERP and unsubscribe addresses of known email sends (anything else is refused at RCPT with
// 550), with no authentication, a size limit, few recipients per message and few connections per
// client; each message is then applied to its send (email.bounces.ts). Runs only where workers run.
import type { Logger } from 'pino';
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from 'smtp-server';
import type { Readable } from 'node:stream';
import { applyInbound, isKnownSend, parseVerpAddress, type BounceDeps } from './email.bounces';

export const BOUNCE_LIMITS = {
  /** Bytes of one message: a DSN carries the returned headers (or message); enough for both. */
  size: 5 * 1024 * 1024,
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

export async function startBounceListener(
  deps: BounceDeps,
  logger: Logger,
  options: { port: number; host: string },
): Promise<BounceListener> {
  const perClient = new Map<string, number>();
  const server = new SMTPServer({
    name: 'titan-bounces',
    banner: 'Titan bounce and complaint processor',
    secure: false,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: BOUNCE_LIMITS.size,
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
      // Only addresses Titan signed: the unsigned ones of mail sent before signing are refused too.
      const verp = parseVerpAddress(deps.tokens, address.address);
      if (!verp) return callback(smtpError(550, '5.1.1 No such recipient here'));
      isKnownSend(deps.db, verp.sendId).then(
        (known) => callback(known ? null : smtpError(550, '5.1.1 No such recipient here')),
        (err: unknown) => {
          logger.error({ err }, 'bounce listener could not look up a send');
          callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
        },
      );
    },
    onData(stream: Readable, session: SMTPServerSession, callback: (err?: Error | null) => void) {
      readAll(stream, BOUNCE_LIMITS.size)
        .then(async (raw) => {
          if (!raw || (stream as Readable & { sizeExceeded?: boolean }).sizeExceeded) {
            return callback(smtpError(552, '5.3.4 Message too big'));
          }
          for (const rcpt of session.envelope.rcptTo) {
            const verp = parseVerpAddress(deps.tokens, rcpt.address);
            if (!verp) continue;
            const { outcome, detail } = await applyInbound(deps, verp, raw);
            if (outcome === 'unmatched' || outcome === 'ignored')
              logger.warn({ send_id: verp.sendId, outcome, detail }, 'inbound mail to a send ignored');
            else logger.info({ send_id: verp.sendId, outcome }, 'inbound mail to a send applied');
          }
          callback();
        })
        .catch((err: unknown) => {
          logger.error({ err }, 'bounce listener could not apply a message');
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
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
