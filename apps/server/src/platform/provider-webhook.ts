// One shape for the webhooks outside providers call (Meta's WhatsApp Cloud, Twilio, Chargebee):
//  1. the body arrives as the provider signed it, in a scope of its own: the raw bytes for an HMAC
//     over them (`raw`), the form's parameters for Twilio's signature (`form`), or JSON (`json`);
//  2. `verify` checks the provider's credential before anything is kept, and refuses with the
//     provider's convention (401 or 403) having changed nothing; it answers what was verified
//     (the account, the parsed event);
//  3. `accept` records the delivery, once by the provider's own id, committed before the answer,
//     so a retried delivery finds it and changes nothing;
//  4. `answer` replies in the format the provider reads (an envelope, TwiML, 204).
// The routes are public (the provider's credential is the only one) and documented like any other.
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { acceptFormBodies } from './http';

export type WebhookBody = 'raw' | 'form' | 'json';

type BodyOf<B extends WebhookBody> = B extends 'raw'
  ? Buffer
  : B extends 'form'
    ? Record<string, string>
    : unknown;

export type ProviderWebhook<B extends WebhookBody, Verified, Outcome> = {
  path: string;
  body: B;
  /** The largest delivery the provider sends, in bytes. */
  bodyLimit: number;
  /** The route's schema as the OpenAPI document reads it (tags, summary, JSON answers). */
  schema: FastifySchema;
  /** The route's `config.openapi` (headers, body, answers, errors). */
  openapi: Record<string, unknown>;
  verify(request: FastifyRequest, body: BodyOf<B>): Promise<Verified>;
  accept(verified: Verified): Promise<Outcome>;
  answer(reply: FastifyReply, outcome: Outcome): unknown;
};

/** Registers one provider webhook (POST) in its own scope: body as signed → verify → accept → answer. */
export async function providerWebhook<B extends WebhookBody, Verified, Outcome>(
  // Any Fastify instance (type providers differ): the route's schema is plain data here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  app: FastifyInstance<any, any, any, any, any>,
  hook: ProviderWebhook<B, Verified, Outcome>,
): Promise<void> {
  await app.register(async (scope: FastifyInstance) => {
    if (hook.body === 'raw') {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser(
        'application/json',
        { parseAs: 'buffer', bodyLimit: hook.bodyLimit },
        (_request, body, done) => done(null, body),
      );
    } else if (hook.body === 'form') {
      acceptFormBodies(scope, hook.bodyLimit);
    }
    scope.post(
      hook.path,
      {
        config: { public: true, openapi: hook.openapi },
        bodyLimit: hook.bodyLimit,
        schema: hook.schema,
      },
      async (request, reply) => {
        const verified = await hook.verify(request, request.body as BodyOf<B>);
        const outcome = await hook.accept(verified);
        return hook.answer(reply, outcome);
      },
    );
  });
}

/** A request header's one value (absent or repeated: undefined). */
export function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
