// Every route in the OpenAPI document, sent a NUL, an out-of-range date and a malformed percent-
// encoding in each place it takes text: none may answer 5xx (a security audit found 22 that did).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUL_CHARACTER_MESSAGE } from '@titan/contracts';
import { as, createBusiness, signUp } from '../testing/identity';
import { createTestRuntime, type TestRuntime } from '../testing/test-runtime';

type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  pattern?: string;
};
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type Probe = { method: string; url: string; payload?: unknown; what: string };

const NUL = 'a\u0000b';
const BAD_DATE = '99999-01-01';
const BAD_ENCODING = '%E0%A4%A';
const DATE_PARAM = /(_at|date|_on|before|after|since|until)(__(gte|lte|gt|lt))?$/;

/** A value the schema accepts, as far as a test can tell without knowing the route's data. */
function sample(schema: JsonSchema | undefined, name = '', all = true): unknown {
  if (!schema) return 'x';
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt) return sample(alt.find((s) => s.type !== 'null') ?? alt[0], name);
  if (schema.allOf) return sample(schema.allOf[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(schema.properties ?? {}))
        if (all || schema.required?.includes(key)) out[key] = sample(sub, key, all);
      return out;
    }
    case 'array':
      return [sample(schema.items, name)];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      if (schema.format === 'email' || name.includes('email')) return 'someone@example.test';
      if (schema.format === 'date-time' || DATE_PARAM.test(name)) return '2030-01-01T00:00:00Z';
      if (schema.format === 'uri' || name.includes('url')) return 'https://example.test/x';
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
  }
}

/** Every path (as a list of keys) to a string inside `value`. */
function stringPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, i]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  return [];
}

function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), by);
  return copy;
}

function urlOf(path: string, params: Record<string, string>, query: Record<string, string>): string {
  const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? '1');
  const qs = Object.entries(query)
    .map(([k, v]) => `${encodeURIComponent(k)}=${v}`)
    .join('&');
  return qs ? `${filled}?${qs}` : filled;
}

/** The bad requests for one operation. Path and query values are already percent-encoded. */
function probesOf(method: string, path: string, op: Operation): Probe[] {
  const params = (op.parameters ?? []).filter((p) => p.in === 'path');
  const queries = (op.parameters ?? []).filter((p) => p.in === 'query');
  const goodParams = Object.fromEntries(
    params.map((p) => [p.name, encodeURIComponent(String(sample(p.schema, p.name)))]),
  );
  // Optional fields are left out, so that a made-up value in one cannot hide the probe in another.
  const goodQuery = Object.fromEntries(
    queries
      .filter((q) => q.required)
      .map((q) => [q.name, encodeURIComponent(String(sample(q.schema, q.name)))]),
  );
  const jsonSchema = op.requestBody?.content?.['application/json']?.schema;
  const fullBody = jsonSchema ? sample(jsonSchema) : undefined;
  const goodBody = jsonSchema ? sample(jsonSchema, '', false) : undefined;
  /** The required fields with one more field, the one probed, at `at`. */
  const bodyWith = (at: (string | number)[], value: unknown) =>
    replaced(
      { ...(goodBody as object), [at[0]!]: (fullBody as Record<string | number, unknown>)[at[0]!] },
      at,
      value,
    );
  const probes: Probe[] = [];
  const add = (what: string, p: Record<string, string>, q: Record<string, string>, payload = goodBody) =>
    probes.push({ method, url: urlOf(path, p, q), payload, what });
  for (const p of params) {
    if (p.schema?.type === 'integer' || p.schema?.type === 'number')
      add(`out-of-range number in path ${p.name}`, { ...goodParams, [p.name]: '2147483648' }, goodQuery);
    add(`NUL in path ${p.name}`, { ...goodParams, [p.name]: encodeURIComponent(NUL) }, goodQuery);
    add(`bad encoding in path ${p.name}`, { ...goodParams, [p.name]: BAD_ENCODING }, goodQuery);
  }
  for (const q of queries) {
    add(`NUL in query ${q.name}`, goodParams, { ...goodQuery, [q.name]: encodeURIComponent(NUL) });
    add(`bad encoding in query ${q.name}`, goodParams, { ...goodQuery, [q.name]: BAD_ENCODING });
    add(`year 99999 in query ${q.name}`, goodParams, { ...goodQuery, [q.name]: BAD_DATE });
  }
  for (const at of stringPaths(fullBody)) {
    const name = at.join('.');
    if (at.length === 0) continue;
    add(`NUL in body ${name}`, goodParams, goodQuery, bodyWith(at, NUL));
    if (DATE_PARAM.test(String(at.at(-1))))
      add(`year 99999 in body ${name}`, goodParams, goodQuery, bodyWith(at, BAD_DATE));
  }
  if (jsonSchema && typeof goodBody === 'object' && goodBody !== null) {
    add('NUL in a body key', goodParams, goodQuery, { ...goodBody, [NUL]: 'x' });
  }
  if (op.requestBody?.content?.['multipart/form-data'] || /upload|media/.test(path)) {
    for (const part of ['name', 'value', 'filename'] as const) {
      probes.push({
        method,
        url: urlOf(path, goodParams, goodQuery),
        what: `NUL in multipart ${part}`,
        payload: part,
      });
    }
  }
  return probes;
}

function multipart(part: 'name' | 'value' | 'filename') {
  const boundary = 'titanboundary';
  const field = (name: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const body =
    field(
      part === 'name' ? `pre${'\u0000'}fix` : 'prefix',
      part === 'value' ? `chat${'\u0000'}media` : 'chat_media',
    ) +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${part === 'filename' ? 'a\u0000b.txt' : 'a.txt'}"\r\n` +
    `Content-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

let rt: TestRuntime;
let app: FastifyInstance;
let ownerHeaders: Record<string, string>;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  const owner = await signUp(app, rt.mailer);
  const business = await createBusiness(app, owner);
  ownerHeaders = as(owner, business);
});
afterAll(() => rt.destroy());

async function send(probe: Probe, headers: Record<string, string>) {
  if (typeof probe.payload === 'string' && probe.what.startsWith('NUL in multipart')) {
    const { body, contentType } = multipart(probe.payload as 'name');
    return app.inject({
      method: probe.method as 'POST',
      url: probe.url,
      headers: { ...headers, 'content-type': contentType },
      payload: body,
    });
  }
  return app.inject({
    method: probe.method as 'GET',
    url: probe.url,
    headers,
    ...(probe.payload === undefined ? {} : { payload: probe.payload as object }),
  });
}

describe('bad input never answers 5xx', () => {
  it('on every route in the OpenAPI document, signed in as an owner and signed out', async () => {
    const doc = app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const probes: Probe[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        probes.push(...probesOf(method.toUpperCase(), path, op));
      }
    }
    // Files are served outside the API: a signed path with a broken encoding or a NUL.
    probes.push(
      { method: 'GET', url: `/files/${BAD_ENCODING}?exp=1&sig=x`, what: 'bad encoding in a file path' },
      { method: 'GET', url: `/files/a%25E0%25A4%25A?exp=1&sig=x`, what: 'bad encoding in a file key' },
      { method: 'GET', url: `/files/a%00b?exp=1&sig=x`, what: 'NUL in a file path' },
      { method: 'GET', url: `/files/a?exp=1&sig=a%00b`, what: 'NUL in a file signature' },
    );
    expect(probes.length).toBeGreaterThan(200);
    const offenders: string[] = [];
    for (const probe of probes) {
      for (const [who, headers] of [
        ['owner', ownerHeaders],
        ['anonymous', {}],
      ] as const) {
        const res = await send(probe, headers).catch((err: Error) => ({ statusCode: 599, err }));
        if (res.statusCode >= 500)
          offenders.push(`${probe.method} ${probe.url} (${probe.what}, ${who}) → ${res.statusCode}`);
      }
    }
    expect(offenders, offenders.join('\n')).toEqual([]);
  });
});

describe('NUL characters are refused with a message naming the field', () => {
  it('in a multipart part name, value or file name', async () => {
    const answers = [];
    for (const part of ['name', 'value', 'filename'] as const) {
      const { body, contentType } = multipart(part);
      const res = await app.inject({
        method: 'POST',
        url: '/api/upload/',
        headers: { ...ownerHeaders, 'content-type': contentType },
        payload: body,
      });
      answers.push([res.statusCode, res.json().result]);
    }
    expect(answers).toEqual([
      [400, { non_field_errors: [NUL_CHARACTER_MESSAGE] }],
      [400, { prefix: [NUL_CHARACTER_MESSAGE] }],
      [400, { file: [NUL_CHARACTER_MESSAGE] }],
    ]);
  });

  it('in a public path parameter, before anything reads it', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/public/business/a%00b/' });
    expect(res.statusCode).toBe(400);
    expect(res.json().result).toEqual({ business_code: [NUL_CHARACTER_MESSAGE] });
  });
});
