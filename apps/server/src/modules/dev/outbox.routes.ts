// The development outbox (api.md): registered only outside production, with no SMTP_URL, on a
// loopback bind. Its mail holds sign-in and password reset links, so it answers only requests made
// on this machine, for one address at a time.
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OUTBOX_ERRORS, ZEnvelope, ZOutboxMail, ZOutboxQuery } from '@titan/contracts';
import { isLoopbackHost, type Config } from '../../config';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import { ok } from '../../platform/http';

/** An address as proxies write it — `::ffff:127.0.0.1`, `"[::1]:4711"`, `127.0.0.1:80` — is loopback. */
export function isLoopbackAddress(value: string): boolean {
  let address = value.trim().replace(/^"|"$/g, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = address.replace(/^::ffff:/i, '');
  return address !== 'localhost' && isLoopbackHost(address);
}

/** Every client address the request names: the socket's, then any a proxy added. */
function clientAddresses(request: FastifyRequest): string[] {
  const headerValues = (name: string) => {
    const value = request.headers[name];
    return value === undefined ? [] : Array.isArray(value) ? value : [value];
  };
  const forwardedFor = headerValues('x-forwarded-for').flatMap((v) => v.split(','));
  const forwarded = headerValues('forwarded')
    .flatMap((v) => v.split(/[,;]/))
    .map((pair) => /^\s*for\s*=\s*(.*)$/i.exec(pair)?.[1])
    .filter((v): v is string => v !== undefined);
  return [
    request.raw.socket.remoteAddress ?? '',
    ...forwardedFor,
    ...forwarded,
    ...headerValues('x-real-ip'),
  ];
}

/**
 * The socket must come from this machine and no proxy may name another address — whatever
 * TRUST_PROXY says. The Host must name this machine (or PUBLIC_URL), so a web page that rebinds
 * its own DNS name to 127.0.0.1 cannot read the outbox from the visitor's browser.
 */
function isLocalRequest(request: FastifyRequest, publicUrl: string): boolean {
  if (!clientAddresses(request).every(isLoopbackAddress)) return false;
  const host = request.headers.host ?? '';
  if (!URL.canParse(`http://${host}`)) return false;
  const hostname = new URL(`http://${host}`).hostname;
  return isLoopbackHost(hostname) || hostname === new URL(publicUrl).hostname;
}

export const outboxRoutes: FastifyPluginAsyncZod<{
  mailer: Mailer;
  config: Pick<Config, 'PUBLIC_URL'>;
}> = async (app, { mailer, config }) => {
  app.get(
    '/api/dev/outbox/',
    {
      config: { public: true },
      schema: {
        tags: ['development'],
        summary: "One address's mail kept by the development outbox, newest first (this machine only)",
        querystring: ZOutboxQuery,
        response: { 200: ZEnvelope(z.array(ZOutboxMail)) },
      },
      // Before validation, so a request from elsewhere learns nothing, not even what `to` should be.
      onRequest: async (request) => {
        if (!isLocalRequest(request, config.PUBLIC_URL)) {
          throw new AppError('forbidden', OUTBOX_ERRORS.notLocal);
        }
      },
    },
    async (request) => ok(await mailer.listOutbox(request.query.to)),
  );
};
