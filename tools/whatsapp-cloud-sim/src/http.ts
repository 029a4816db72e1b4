// Small node:http helpers shared by the Graph routes, the control API and the phone page.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { metaJson } from './meta-json';

/** Uploads go up to 100 MB (documents); a little headroom for the multipart framing. */
export const MAX_BODY_BYTES = 101 * 1024 * 1024;

export class BodyTooLarge extends Error {}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new BodyTooLarge());
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Graph answers in Meta's escaped JSON. */
export function sendGraph(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = metaJson(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=UTF-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

export function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
