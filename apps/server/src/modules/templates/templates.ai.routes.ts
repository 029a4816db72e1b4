// `POST /api/template/gpt-prompt-email/` (engage.md §2): a template written by the business's model,
// compiled before it is answered — whole, or streamed as server-sent events (`Accept:
// text/event-stream` or `?stream=true`) for the AI template screen to show the text arriving.
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZEnvelope,
  ZFieldErrors,
  ZGenerateEmailTemplateRequest,
  ZGeneratedEmailTemplate,
  type TEmailTemplateStreamEvent,
} from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { ok } from '../../platform/http';
import { actorIdOf, businessOf } from '../../platform/request-context';
import { prepareTemplateGeneration, type AiTemplateDeps } from './templates.ai.service';

const tags = ['email templates'];

const ZStreamQuery = z.object({ stream: z.enum(['true', 'false']).optional() });

/** One server-sent event: its type as the event name, the whole event as JSON data. */
function sse(event: TEmailTemplateStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

const GENERIC_FAILURE = 'Something went wrong on our side. Please try again.';

export const templateAiRoutes: FastifyPluginAsyncZod<{ deps: AiTemplateDeps }> = async (app, { deps }) => {
  app.post(
    '/api/template/gpt-prompt-email/',
    {
      config: { business: true, permission: 'engage.write', openapi: { errors: [409, 422, 502, 503, 504] } },
      schema: {
        tags,
        summary:
          'Generate a template {name, subject, preheader, format, content} from a prompt; compiled before it is answered (streamed with Accept: text/event-stream or ?stream=true)',
        body: ZGenerateEmailTemplateRequest,
        querystring: ZStreamQuery,
        response: { 200: ZEnvelope(ZGeneratedEmailTemplate) },
      },
    },
    async (request, reply) => {
      const generation = await prepareTemplateGeneration(
        deps,
        { businessId: businessOf(request).id, userId: actorIdOf(request) },
        request.body,
      );
      const streamed =
        request.query.stream === 'true' ||
        (request.query.stream === undefined && (request.headers.accept ?? '').includes('text/event-stream'));
      if (!streamed) return ok(await generation.run());

      // Streamed: the status line is sent now; what follows, failures included, are events.
      const stream = new PassThrough();
      const aborter = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) aborter.abort();
      });
      const write = (event: TEmailTemplateStreamEvent) => {
        if (!stream.writableEnded) stream.write(sse(event));
      };
      void generation
        .run({ signal: aborter.signal, onEvent: write })
        .then(
          (template) => write({ type: 'result', template }),
          (err: unknown) => {
            if (err instanceof AppError && err.status < 500) {
              const errors = ZFieldErrors.safeParse(err.result);
              write({
                type: 'error',
                status: err.status,
                message: err.message,
                ...(errors.success ? { errors: errors.data } : {}),
              });
            } else if (err instanceof AppError) {
              request.log.warn({ err }, err.message);
              write({ type: 'error', status: err.status, message: err.message });
            } else {
              request.log.error({ err }, 'AI template generation failed');
              write({ type: 'error', status: 500, message: GENERIC_FAILURE });
            }
          },
        )
        .finally(() => stream.end());
      // The stream is the answer: not the route's JSON envelope.
      return (reply as FastifyReply)
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .send(stream);
    },
  );
};
