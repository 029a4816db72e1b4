// The api.md envelope for every answer, success or error, and the one error handler.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { TEnvelope, TFieldErrors } from '@titan/contracts';
import sjson from 'secure-json-parse';
import { nulInJson } from './bad-input';
import { sqlStateOf } from './db-errors';
import { AppError } from './errors';

export function ok<T>(result: T, status = 200): TEnvelope<T> {
  return { status, message: status === 201 ? 'Created' : 'OK', result };
}

export function created<T>(reply: FastifyReply, result: T): TEnvelope<T> {
  reply.code(201);
  return ok(result, 201);
}

/** JSON text that is already encoded, to be spliced into an answer as is (see sendOkJson). */
export type JsonText = string & { readonly __jsonText: true };
export const jsonText = (text: string) => text as JsonText;

/**
 * Answers 200 with an envelope around `result`, which is already JSON: Fastify sends a string
 * with a JSON content type as it is, past the route's response serializer (the route's schema
 * still documents the shape, and the tests hold the text to it).
 */
export function sendOkJson(reply: FastifyReply, result: JsonText): FastifyReply {
  return reply
    .type('application/json; charset=utf-8')
    .send(`{"status":200,"message":"OK","result":${result}}`);
}

const MESSAGES: Record<number, string> = {
  400: 'Invalid input.',
  401: 'Authentication credentials were not provided or are invalid.',
  402: 'Payment required.',
  403: 'You do not have permission to perform this action.',
  404: 'Not found.',
  405: 'Method not allowed.',
  409: 'Conflict.',
  413: 'Request body is too large.',
  415: 'Unsupported media type.',
  429: 'Too many requests. Please try again later.',
  500: 'Something went wrong on our side. Please try again.',
  503: 'Service unavailable.',
};

export const INVALID_VALUE_MESSAGE = 'A value in this request is not valid.';
export const BAD_URL_MESSAGE = 'The address is not validly percent-encoded.';

function fieldErrorsOf(error: FastifyError): TFieldErrors {
  const fields: TFieldErrors = {};
  for (const v of error.validation ?? []) {
    const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
    // A query parameter the route does not know (strict query schemas): named as its own field.
    const unknown = (v.params as { keys?: unknown } | undefined)?.keys;
    if (
      v.keyword === 'unrecognized_keys' &&
      error.validationContext === 'querystring' &&
      Array.isArray(unknown)
    ) {
      for (const key of unknown)
        (fields[String(key)] ??= []).push(`Unknown query parameter: ${String(key)}.`);
      continue;
    }
    const key = path === '' ? 'non_field_errors' : path;
    (fields[key] ??= []).push(v.message ?? 'Invalid value.');
  }
  return fields;
}

function send(reply: FastifyReply, status: number, message: string, result: unknown) {
  const body: Record<string, unknown> = { status, message, result };
  if (status >= 500) body.request_id = reply.request.id;
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      reply.headers(error.headers);
      return send(reply, error.status, error.message, error.result);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return send(reply, 400, MESSAGES[400]!, fieldErrorsOf(error));
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response did not match its schema');
      return send(reply, 500, MESSAGES[500]!, null);
    }
    // Last resort for input the checks in front let through: a data exception (SQLSTATE class 22:
    // a bad value for its type, out of range, invalid text…) is the request's fault, not ours.
    if (error.statusCode === undefined && sqlStateOf(error)?.startsWith('22')) {
      request.log.warn({ err: error }, 'the database refused a value of the request');
      return send(reply, 400, MESSAGES[400]!, { non_field_errors: [INVALID_VALUE_MESSAGE] });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return send(reply, 500, MESSAGES[500]!, null);
    }
    if (status === 429) return send(reply, 429, MESSAGES[429]!, null);
    if (status === 400 && error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      return send(reply, 400, MESSAGES[400]!, { non_field_errors: ['Malformed JSON body.'] });
    }
    if (status === 400) {
      return send(reply, 400, MESSAGES[400]!, { non_field_errors: [error.message] });
    }
    // Fastify's own 4xx (413 body too large, 415 media type, …): a known, safe message.
    return send(reply, status, MESSAGES[status] ?? error.message, null);
  });
}

/**
 * Errors Fastify meets before routing (Fastify's `frameworkErrors`), in the envelope: a path that is
 * not validly percent-encoded, a path parameter too long.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (error.code === 'FST_ERR_BAD_URL') {
    return send(reply, 400, MESSAGES[400]!, { non_field_errors: [BAD_URL_MESSAGE] });
  }
  const status = error.statusCode ?? 500;
  return send(reply, status, MESSAGES[status] ?? MESSAGES[500]!, null);
}

/**
 * JSON bodies: an empty body with a JSON content type (many clients send one on DELETE) means
 * "no body" instead of an error; prototype poisoning is refused as in Fastify's own parser, and
 * text holding NUL characters with a 400 naming its fields.
 */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = sjson.parse(text, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      done(
        new AppError('bad_request', MESSAGES[400]!, { non_field_errors: ['Malformed JSON body.'] }),
        undefined,
      );
      return;
    }
    const nul = nulInJson(text, parsed);
    if (nul) done(nul, undefined);
    else done(null, parsed);
  });
}

export function notFound(_request: FastifyRequest, reply: FastifyReply) {
  return send(reply, 404, MESSAGES[404]!, null);
}

/**
 * HTML-form bodies (application/x-www-form-urlencoded) read as a flat object of strings, in the
 * encapsulated scope that takes them (webhooks, RFC 8058 one-click posts), up to `limit` bytes.
 */
export function acceptFormBodies(scope: FastifyInstance, limit: number): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: limit },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}
