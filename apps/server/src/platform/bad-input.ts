// Input PostgreSQL cannot take, refused once for every route with a 400 naming the field: text
// holding U+0000 (in the URL, a JSON body or a multipart part). Each check is a substring search
// of text already at hand; the parsed values are walked only when that search hits.
import type { FastifyRequest } from 'fastify';
import { NUL_CHARACTER_MESSAGE, type TFieldErrors } from '@titan/contracts';
import { AppError } from './errors';

const NUL = '\u0000';

/** The dotted paths of the strings (values or keys) holding a NUL in a parsed value. */
export function nulFields(value: unknown, at = '', out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.includes(NUL)) out.push(at);
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) nulFields(value[i], at ? `${at}.${i}` : String(i), out);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      const path = at ? `${at}.${key}` : key;
      if (key.includes(NUL)) out.push(path);
      else nulFields(v, path, out);
    }
  }
  return out;
}

export function nulError(fields: string[]): AppError {
  const errors: TFieldErrors = {};
  // A NUL outside every named value (a key, a static path segment) is not tied to a field.
  for (const f of fields.length > 0 ? fields : ['non_field_errors'])
    errors[f.includes(NUL) || f === '' ? 'non_field_errors' : f] = [NUL_CHARACTER_MESSAGE];
  return AppError.fields(errors);
}

/**
 * A NUL in the path or query, percent-encoded or raw, as an error naming the parameters holding
 * it; null for every ordinary URL (two substring searches).
 */
export function nulInUrl(request: FastifyRequest): AppError | null {
  const url = request.url;
  if (!url.includes('%00') && !url.includes(NUL)) return null;
  const params = request.params as Record<string, unknown> | undefined;
  const fields = [
    ...nulFields({ ...params }).map((f) => (f === '*' ? 'path' : f)),
    ...nulFields({ ...(request.query as object | undefined) }),
  ];
  return nulError(fields);
}

/**
 * Parsed JSON holding a NUL, as an error naming the fields; `text` is the raw body, in which a NUL
 * can only be the escape `\u0000` (JSON refuses raw control characters), so most bodies are
 * passed after one search. A hit may be an escaped backslash (`\\u0000`), hence the walk.
 */
export function nulInJson(text: string, parsed: unknown): AppError | null {
  if (!text.includes('\\u0000')) return null;
  const fields = nulFields(parsed);
  return fields.length > 0 ? nulError(fields) : null;
}
