// The JSON Schema subset OpenAI's structured outputs accept: a deterministic instance of a schema
// (what the default brain answers), a check that an instance satisfies it, and the strict-mode rules
// OpenAI enforces on `response_format.json_schema` when `strict` is true.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  description?: string;
  default?: unknown;
};

type Root = JsonSchema;

function resolveRef(root: Root, ref: string): JsonSchema {
  const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (ref === '#') return root;
  const defs = m ? (m[1] === '$defs' ? root.$defs : root.definitions) : undefined;
  const found = m && defs ? defs[decodeURIComponent(m[2]!)] : undefined;
  if (!found) throw new Error(`unresolvable $ref ${ref}`);
  return found;
}

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (schema.type) return [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

/** What strings are built from: the words of the request, so answers read as answers to it. */
export type InstanceHints = { topic: string; words: string[] };

function stringFor(name: string, schema: JsonSchema, hints: InstanceHints): string {
  switch (schema.format) {
    case 'email':
      return 'someone@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'date-time':
      return '2030-01-01T00:00:00Z';
    case 'date':
      return '2030-01-01';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    default:
      break;
  }
  const label = name ? name.replace(/[_-]+/g, ' ') : 'value';
  let text = hints.topic ? `${label}: ${hints.topic}` : label;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  while (text.length < min) text += ` ${label}`;
  if (text.length > max) text = text.slice(0, max);
  return text;
}

function numberFor(schema: JsonSchema, integer: boolean): number {
  let n = 1;
  if (schema.minimum !== undefined) n = Math.max(n, schema.minimum);
  if (schema.exclusiveMinimum !== undefined) n = Math.max(n, schema.exclusiveMinimum + (integer ? 1 : 0.5));
  if (schema.maximum !== undefined) n = Math.min(n, schema.maximum);
  if (schema.exclusiveMaximum !== undefined) n = Math.min(n, schema.exclusiveMaximum - (integer ? 1 : 0.5));
  return integer ? Math.ceil(n) : n;
}

/** A deterministic instance of `schema`: every property filled (strict schemas require them all). */
export function instanceOf(
  schema: JsonSchema,
  hints: InstanceHints,
  root: Root = schema,
  name = '',
): unknown {
  if (schema.$ref) return instanceOf(resolveRef(root, schema.$ref), hints, root, name);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    const chosen = alternatives.find((s) => !typesOf(s).includes('null')) ?? alternatives[0]!;
    return instanceOf(chosen, hints, root, name);
  }
  if (schema.allOf && schema.allOf.length > 0) {
    const merged: JsonSchema = {};
    for (const part of schema.allOf) Object.assign(merged, part.$ref ? resolveRef(root, part.$ref) : part);
    return instanceOf(merged, hints, root, name);
  }
  const type = typesOf(schema).find((t) => t !== 'null') ?? typesOf(schema)[0] ?? 'string';
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(schema.properties ?? {})) {
        out[key] = instanceOf(prop, hints, root, key);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(1, schema.minItems ?? 1);
      const limited = schema.maxItems !== undefined ? Math.min(count, schema.maxItems) : count;
      return Array.from({ length: limited }, () =>
        instanceOf(schema.items ?? { type: 'string' }, hints, root, name),
      );
    }
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return stringFor(name, schema, hints);
  }
}

function typeMatches(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/** Where `value` breaks `schema` (JSON-pointer-ish paths), or [] when it satisfies it. */
export function violations(value: unknown, schema: JsonSchema, root: Root = schema, path = ''): string[] {
  if (schema.$ref) return violations(value, resolveRef(root, schema.$ref), root, path);
  const at = path || '(root)';
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) {
    return [`${at}: expected ${JSON.stringify(schema.const)}`];
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    return [`${at}: expected one of ${JSON.stringify(schema.enum)}`];
  }
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) {
    return alternatives.some((s) => violations(value, s, root, path).length === 0)
      ? []
      : [`${at}: matches none of the allowed shapes`];
  }
  if (schema.allOf) return schema.allOf.flatMap((s) => violations(value, s, root, path));
  const types = typesOf(schema);
  if (types.length > 0 && !types.some((t) => typeMatches(value, t))) {
    return [`${at}: expected ${types.join(' or ')}`];
  }
  const out: string[] = [];
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      out.push(`${at}: shorter than ${schema.minLength}`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      out.push(`${at}: longer than ${schema.maxLength}`);
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) out.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(`${at}: above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      out.push(`${at}: fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      out.push(`${at}: more than ${schema.maxItems} items`);
    if (schema.items)
      value.forEach((v, i) => out.push(...violations(v, schema.items!, root, `${path}/${i}`)));
  }
  if (typeMatches(value, 'object') && (schema.properties || schema.required)) {
    const obj = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!(key in obj)) out.push(`${path}/${key}: required`);
    for (const [key, v] of Object.entries(obj)) {
      const prop = schema.properties?.[key];
      if (prop) out.push(...violations(v, prop, root, `${path}/${key}`));
      else if (schema.additionalProperties === false) out.push(`${path}/${key}: not allowed`);
    }
  }
  return out;
}

/**
 * OpenAI's strict mode: every object says `additionalProperties: false` and requires every one of
 * its properties. Answers the first breach as OpenAI words it, or null.
 */
export function strictSchemaProblem(schema: JsonSchema, root: Root = schema, path = 'schema'): string | null {
  if (schema.$ref) return null;
  const defs = { ...(schema.$defs ?? {}), ...(schema.definitions ?? {}) };
  for (const [key, def] of Object.entries(defs)) {
    const p = strictSchemaProblem(def, root, `${path}/$defs/${key}`);
    if (p) return p;
  }
  if (typesOf(schema).includes('object')) {
    if (schema.additionalProperties !== false) {
      return `In context=(${path}), 'additionalProperties' is required to be supplied and to be false.`;
    }
    const keys = Object.keys(schema.properties ?? {});
    const missing = keys.filter((k) => !(schema.required ?? []).includes(k));
    if (missing.length > 0) {
      return `In context=(${path}), 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`;
    }
    for (const [key, prop] of Object.entries(schema.properties ?? {})) {
      const p = strictSchemaProblem(prop, root, `${path}/properties/${key}`);
      if (p) return p;
    }
  }
  if (schema.items) return strictSchemaProblem(schema.items, root, `${path}/items`);
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    const p = strictSchemaProblem(alt, root, path);
    if (p) return p;
  }
  return null;
}
