// OpenAPI 3.1 generated from the route zod schemas, browsable at /api/docs (JSON at /api/docs/json).
// What the schemas cannot say is read from each route's declarations (`config`): who may call it
// (security, X-Business-Code), the errors the guard, the schemas and the rate limiter answer, and
// what the route itself declares in `config.openapi` (a body it reads itself — multipart parts, a
// webhook's form —, the further errors its handler answers, a name for a `*` path parameter).
// The document is complete enough to generate a client from: `openapi.test.ts` validates it
// (swagger-parser, Redocly's lint) and checks real answers against it.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TPermission } from '@titan/contracts';
import { markRoutesPublic } from './public-scope';
import { version } from './version';

/** What a route tells the OpenAPI document beyond its schemas. */
export type RouteDoc = {
  /** A body the handler reads itself: content type → the fields (files as `z.file()`). */
  body?: Record<string, z.ZodType>;
  /** Statuses the handler answers beyond those its guard, schemas and rate limit imply. */
  errors?: readonly ErrorStatus[];
  /** Success statuses other than the schema's (a 204 with no body, a CSV or a file). */
  answers?: Record<number, { description: string; content?: string }>;
  /** The name of a `*` path parameter. */
  wildcard?: string;
  /** Public, but with the visitor's session token (the chat widget's calls). */
  visitor?: boolean;
  /** Headers the route reads (a webhook's signature). */
  headers?: Record<string, string>;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the OpenAPI document says of this route beyond its schemas (see platform/openapi.ts). */
    openapi?: RouteDoc;
  }
}

export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503 | 504;

const ERROR_DESCRIPTIONS: Record<ErrorStatus, [name: string, description: string]> = {
  400: [
    'BadRequest',
    'Invalid input: `result` maps each field to its messages (`non_field_errors` for the rest).',
  ],
  401: ['Unauthorized', 'Not signed in, or the token or API key is invalid or expired.'],
  402: ['PaymentRequired', 'The plan or its quota does not allow this: `result.dialog` says why.'],
  403: [
    'Forbidden',
    'Signed in but not allowed (not a member, the role lacks the permission, or an API key here).',
  ],
  404: ['NotFound', 'Not found (also for another business’s objects).'],
  409: ['Conflict', 'The request conflicts with the current state (the message says how).'],
  413: ['PayloadTooLarge', 'The body or file is too large.'],
  415: ['UnsupportedMediaType', 'The body is not of a type this route reads.'],
  422: ['Unprocessable', 'Understood but cannot be carried out (the message says why).'],
  429: ['TooManyRequests', 'Too many requests: try again after `Retry-After` seconds.'],
  502: ['BadGateway', 'An outside service this call depends on failed or answered wrongly.'],
  503: ['ServiceUnavailable', 'A service this call depends on is not available right now.'],
  504: ['GatewayTimeout', 'An outside service this call depends on did not answer in time.'],
};

const envelope = (result: object) => ({
  type: 'object',
  required: ['status', 'message', 'result'],
  properties: {
    status: { type: 'integer' },
    message: { type: 'string' },
    result,
    request_id: { type: 'string' },
  },
});

const COMPONENT_SCHEMAS = {
  FieldErrors: {
    type: 'object',
    description: 'Each request field (or `non_field_errors`) mapped to its messages.',
    additionalProperties: { type: 'array', items: { type: 'string' } },
  },
  ErrorEnvelope: envelope({ description: 'null, or details of the error' }),
  ValidationErrorEnvelope: envelope({ $ref: '#/components/schemas/FieldErrors' }),
  PaymentRequiredEnvelope: envelope({
    type: 'object',
    required: ['dialog'],
    properties: {
      dialog: {
        type: 'object',
        required: ['title', 'description'],
        properties: { title: { type: 'string' }, description: { type: 'string' } },
      },
    },
  }),
};

function errorResponse(status: ErrorStatus) {
  const schema =
    status === 400 ? 'ValidationErrorEnvelope' : status === 402 ? 'PaymentRequiredEnvelope' : 'ErrorEnvelope';
  return {
    description: ERROR_DESCRIPTIONS[status][1],
    ...(status === 429
      ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
      : {}),
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
  };
}

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: object; $ref?: string }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
  responses: Record<string, { description: string; content?: Record<string, { schema?: object }> }>;
  security?: Record<string, string[]>[];
};
type Doc = { paths: Record<string, Record<string, Operation>>; [key: string]: unknown };

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** The route's path as @fastify/swagger writes it (`:id` → `{id}`, `*` → `{*}`). */
export const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*/g, '{*}');

const WORDS: Record<string, string> = { msg: 'inbox', api: '' };

/** A readable summary from the method and path, for operations without their own. */
function derivedSummary(method: string, path: string): string {
  const parts = path.split('/').filter((p) => p && p !== 'api');
  const statics = parts.filter((p) => !p.startsWith('{'));
  const last = parts.at(-1) ?? '';
  const endsWithParam = last.startsWith('{');
  const noun = (statics.at(-1) ?? 'resource').replace(/[-_]/g, ' ');
  const owner =
    statics.length > 1
      ? ` (${statics
          .slice(0, -1)
          .map((s) => WORDS[s] ?? s.replace(/[-_]/g, ' '))
          .join(' › ')})`
      : '';
  const subject = `${noun}${owner}`;
  switch (method) {
    case 'get':
      return endsWithParam ? `Read one of ${subject}` : `List or read ${subject}`;
    case 'post':
      return endsWithParam ? `Act on one of ${subject}` : `Create or run ${subject}`;
    case 'put':
    case 'patch':
      return endsWithParam ? `Update one of ${subject}` : `Update ${subject}`;
    case 'delete':
      return endsWithParam ? `Delete one of ${subject}` : `Delete ${subject}`;
    default:
      return `${method.toUpperCase()} ${path}`;
  }
}

/** A unique, stable operation id: the method and the path's words in camelCase. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((p) => p && p !== 'api')
    .map((p) => (p.startsWith('{') ? `by ${p.slice(1, -1)}` : p))
    .join(' ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [method, ...words].map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
}

/** The schema of a non-envelope answer: text, a JSON document, or bytes. */
const contentSchema = (type: string) =>
  type === 'application/json'
    ? { type: 'object' }
    : /^text\/|\+xml$/.test(type)
      ? { type: 'string' }
      : { type: 'string', format: 'binary' };

const toJson = (schema: z.ZodType) => {
  const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
  delete (json as { $schema?: string }).$schema;
  return json;
};

export type OpenApiOptions = {
  /** The permissions an API key holds: routes needing another take bearer tokens only. */
  apiKeyPermissions: readonly TPermission[];
};

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  const routes = new Map<string, RouteOptions>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.set(`${method.toLowerCase()} ${openapiPath(route.url)}`, route);
  });
  const apiKeyPermissions = new Set(options.apiKeyPermissions);

  function complete(doc: Doc): Doc {
    const paths: Doc['paths'] = {};
    const tags = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      let named = path;
      for (const [method, op] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        const route = routes.get(`${method} ${path}`);
        if (route) named = describe(path, method, op, route);
        op.operationId ??= operationIdOf(method, named);
        for (const tag of op.tags ?? []) tags.add(tag);
      }
      paths[named] = item;
    }
    return {
      ...doc,
      tags: [...tags].sort().map((name) => ({ name })),
      paths,
    };
  }

  /** Completes one operation from its route's declarations; answers its path (with `*` named). */
  function describe(path: string, method: string, op: Operation, route: RouteOptions): string {
    const config = route.config ?? {};
    const own: RouteDoc = config.openapi ?? {};
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    let named = path;
    if (path.includes('{*}')) {
      const name = own.wildcard ?? 'path';
      named = path.replace('{*}', `{${name}}`);
      for (const p of op.parameters ?? []) if (p.in === 'path' && p.name === '*') p.name = name;
    }
    op.summary ??= derivedSummary(method, named);
    const errors = new Set<ErrorStatus>(own.errors ?? []);
    // Who may call it.
    if (config.public && own.visitor) {
      op.security = [{ visitor: [] }];
      errors.add(401);
    } else if (config.public) {
      op.security = [];
    } else {
      errors.add(401).add(403);
      const keyAllowed = config.business && (!config.permission || apiKeyPermissions.has(config.permission));
      op.security = keyAllowed ? [{ bearer: [] }, { apiKey: [] }] : [{ bearer: [] }];
      if (config.business) {
        errors.add(400);
        const ref = '#/components/parameters/BusinessCode';
        if (!op.parameters?.some((p) => p.$ref === ref))
          op.parameters = [{ $ref: ref } as never, ...(op.parameters ?? [])];
      }
    }
    for (const [name, description] of Object.entries(own.headers ?? {})) {
      if (op.parameters?.some((p) => p.name === name)) continue;
      (op.parameters ??= []).push({
        name,
        in: 'header',
        required: false,
        schema: { type: 'string' },
        description,
      } as never);
    }
    // A body the route reads itself.
    if (own.body && !op.requestBody) {
      op.requestBody = {
        required: true,
        content: Object.fromEntries(
          Object.entries(own.body).map(([type, fields]) => [type, { schema: toJson(fields) }]),
        ),
      };
    }
    // Input the schemas check, and a path naming an object.
    if (schema.body || schema.querystring || schema.params || own.body) errors.add(400);
    if (/[:*]/.test(route.url)) errors.add(404);
    if ((config as { rateLimit?: unknown }).rateLimit) errors.add(429);
    // Success answers the schemas do not describe.
    for (const [status, answer] of Object.entries(own.answers ?? {})) {
      op.responses[status] = {
        description: answer.description,
        ...(answer.content
          ? { content: { [answer.content]: { schema: contentSchema(answer.content) } } }
          : {}),
      };
    }
    if (own.answers && op.responses['200']?.description === 'Default Response' && !own.answers[200])
      delete op.responses['200'];
    for (const status of [...errors].sort()) {
      op.responses[String(status)] ??= {
        $ref: `#/components/responses/${ERROR_DESCRIPTIONS[status][0]}`,
      } as never;
    }
    return named;
  }

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Titan API',
        version,
        description:
          'Every answer is {status, message, result}. Errors use the same envelope; 400 answers map each field to its messages. ' +
          'Business-scoped calls carry X-Business-Code (an API key acts in its own business). Paths end in `/`.',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The access token of POST /api/auth/login/.',
          },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              '`Authorization: Api-Key <key>`: acts in the key’s business with the agent role plus sending.',
          },
          visitor: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              '`Authorization: Visitor <token>`: the chat visitor’s session (POST /api/public/customers/).',
          },
        },
        parameters: {
          BusinessCode: {
            name: 'X-Business-Code',
            in: 'header',
            required: false,
            description:
              'The business’s unique code: required with a bearer token (400 without, 403 for a business the caller is not a member of); with an API key optional, and then it must be the key’s business.',
            schema: { type: 'string' },
          },
        },
        responses: Object.fromEntries(
          (Object.keys(ERROR_DESCRIPTIONS) as unknown as ErrorStatus[]).map((s) => [
            ERROR_DESCRIPTIONS[s][0],
            errorResponse(Number(s) as ErrorStatus),
          ]),
        ),
        schemas: COMPONENT_SCHEMAS,
      } as never,
    },
    transform: jsonSchemaTransform,
    transformObject: ((input) =>
      complete(jsonSchemaTransformObject(input) as unknown as Doc)) as typeof jsonSchemaTransformObject,
  });
  await app.register(async (scope) => {
    markRoutesPublic(scope);
    await scope.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  });
}
