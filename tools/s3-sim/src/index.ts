// A small S3-compatible server: path-style PutObject / GetObject / HeadObject / DeleteObject and
// multipart uploads (create, upload part, complete, abort) with AWS Signature Version 4 checked on
// every request (Authorization header or presigned query), in memory.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type S3SimOptions = {
  port?: number;
  host?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  region?: string;
  buckets?: string[];
};

export type StoredObject = { body: Buffer; contentType: string; etag: string };

export type S3Sim = {
  url: string;
  port: number;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  objects: Map<string, StoredObject>;
  /** Multipart uploads begun and neither completed nor aborted, by upload id. */
  uploads: Map<string, { id: string; contentType: string; parts: Map<number, Buffer> }>;
  close(): Promise<void>;
};

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it ("/" kept in paths). */
function encode(value: string, keepSlash: boolean): string {
  return encodeURIComponent(value)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%2F/g, keepSlash ? '/' : '%2F');
}

function xmlError(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

type SignatureParts = {
  credential: string;
  signedHeaders: string[];
  signature: string;
  amzDate: string;
  payloadHash: string;
  expires: number | null;
};

function signatureParts(req: IncomingMessage, url: URL): SignatureParts | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith('AWS4-HMAC-SHA256 ')) {
    const fields = Object.fromEntries(
      auth
        .slice('AWS4-HMAC-SHA256 '.length)
        .split(/,\s*/)
        .map((p) => p.split('=') as [string, string]),
    );
    return {
      credential: fields.Credential ?? '',
      signedHeaders: (fields.SignedHeaders ?? '').split(';'),
      signature: fields.Signature ?? '',
      amzDate: String(req.headers['x-amz-date'] ?? ''),
      payloadHash: String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD'),
      expires: null,
    };
  }
  const q = url.searchParams;
  if (q.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256') {
    return {
      credential: q.get('X-Amz-Credential') ?? '',
      signedHeaders: (q.get('X-Amz-SignedHeaders') ?? '').split(';'),
      signature: q.get('X-Amz-Signature') ?? '',
      amzDate: q.get('X-Amz-Date') ?? '',
      payloadHash: 'UNSIGNED-PAYLOAD',
      expires: Number(q.get('X-Amz-Expires') ?? '0'),
    };
  }
  return null;
}

function verify(
  req: IncomingMessage,
  url: URL,
  body: Buffer,
  sim: Pick<S3Sim, 'accessKeyId' | 'secretAccessKey'>,
): string | null {
  const parts = signatureParts(req, url);
  if (!parts) return 'AccessDenied';
  const [accessKey, date, region, service, terminator] = parts.credential.split('/');
  if (
    accessKey !== sim.accessKeyId ||
    !date ||
    !region ||
    service !== 's3' ||
    terminator !== 'aws4_request'
  ) {
    return 'InvalidAccessKeyId';
  }
  const signedAt = Date.parse(
    parts.amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  if (Number.isNaN(signedAt)) return 'AccessDenied';
  if (parts.expires !== null && Date.now() > signedAt + parts.expires * 1000) return 'ExpiredToken';
  if (parts.expires === null && Math.abs(Date.now() - signedAt) > 15 * 60 * 1000)
    return 'RequestTimeTooSkewed';
  if (parts.payloadHash !== 'UNSIGNED-PAYLOAD' && parts.payloadHash !== sha256(body))
    return 'XAmzContentSHA256Mismatch';

  const query = [...url.searchParams.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [encode(k, false), encode(v, false)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headers = parts.signedHeaders
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const path = url.pathname
    .split('/')
    .map((seg) => encode(decodeURIComponent(seg), false))
    .join('/');
  const canonical = [req.method, path, query, headers, parts.signedHeaders.join(';'), parts.payloadHash].join(
    '\n',
  );
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', parts.amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${sim.secretAccessKey}`, date), region), 's3'), 'aws4_request');
  const expected = Buffer.from(createHmac('sha256', key).update(toSign).digest('hex'));
  const given = Buffer.from(parts.signature);
  return expected.length === given.length && timingSafeEqual(expected, given)
    ? null
    : 'SignatureDoesNotMatch';
}

export async function startS3Sim(options: S3SimOptions = {}): Promise<S3Sim> {
  const objects = new Map<string, StoredObject>();
  const uploads: S3Sim['uploads'] = new Map();
  const md5 = (body: Buffer) => `"${createHash('md5').update(body).digest('hex')}"`;
  const xml = (res: ServerResponse, body: string) => {
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
  };
  const buckets = new Set(options.buckets ?? ['titan']);
  const creds = {
    accessKeyId: options.accessKeyId ?? 'titan-dev-key',
    secretAccessKey: options.secretAccessKey ?? 'titan-dev-secret-key-0123456789',
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://s3.local');
      const [, bucket, ...rest] = url.pathname.split('/');
      const key = rest.map((s) => decodeURIComponent(s)).join('/');
      const denied = verify(req, url, body, creds);
      if (denied) return xmlError(res, 403, denied, 'The request signature we calculated does not match.');
      if (!bucket || !buckets.has(bucket))
        return xmlError(res, 404, 'NoSuchBucket', 'The bucket does not exist.');
      const id = `${bucket}/${key}`;
      const uploadId = url.searchParams.get('uploadId');
      const upload = uploadId === null ? null : uploads.get(uploadId);
      if (uploadId !== null && (!upload || upload.id !== id))
        return xmlError(res, 404, 'NoSuchUpload', 'The specified upload does not exist.');
      if (req.method === 'POST' && key && url.searchParams.has('uploads')) {
        const created = randomUUID();
        uploads.set(created, {
          id,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          parts: new Map(),
        });
        return xml(
          res,
          `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${created}</UploadId></InitiateMultipartUploadResult>`,
        );
      }
      if (req.method === 'PUT' && upload) {
        const partNumber = Number(url.searchParams.get('partNumber'));
        if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000)
          return xmlError(res, 400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000.');
        upload.parts.set(partNumber, body);
        res.writeHead(200, { etag: md5(body) });
        return res.end();
      }
      if (req.method === 'POST' && upload) {
        // The parts named, in order, each with the ETag its upload answered; all but the last at
        // least 5 MiB, as S3 wants.
        const named = [...body.toString('utf8').matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((m) => ({
          number: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(m[1]!)?.[1]),
          etag: /<ETag>(.*?)<\/ETag>/.exec(m[1]!)?.[1]?.replace(/&quot;/g, '"'),
        }));
        const bodies: Buffer[] = [];
        for (const [i, part] of named.entries()) {
          const stored = upload.parts.get(part.number);
          if (!stored || md5(stored) !== part.etag || (i > 0 && part.number <= named[i - 1]!.number))
            return xmlError(
              res,
              400,
              'InvalidPart',
              'One or more of the specified parts could not be found.',
            );
          if (i < named.length - 1 && stored.length < 5 * 1024 * 1024)
            return xmlError(
              res,
              400,
              'EntityTooSmall',
              'Your proposed upload is smaller than the minimum allowed size.',
            );
          bodies.push(stored);
        }
        if (bodies.length === 0) return xmlError(res, 400, 'MalformedXML', 'No parts were named.');
        uploads.delete(uploadId!);
        const whole = Buffer.concat(bodies);
        const etag = `"${createHash('md5')
          .update(Buffer.concat(bodies.map(md5).map((e) => Buffer.from(e.slice(1, -1), 'hex'))))
          .digest('hex')}-${bodies.length}"`;
        objects.set(id, { body: whole, contentType: upload.contentType, etag });
        return xml(
          res,
          `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etag.replace(/"/g, '&quot;')}</ETag></CompleteMultipartUploadResult>`,
        );
      }
      if (req.method === 'DELETE' && upload) {
        uploads.delete(uploadId!);
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'DELETE' && key) {
        objects.delete(id);
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'PUT' && key) {
        const etag = md5(body);
        objects.set(id, {
          body,
          contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
          etag,
        });
        res.writeHead(200, { etag });
        return res.end();
      }
      if ((req.method === 'GET' || req.method === 'HEAD') && key) {
        const object = objects.get(id);
        if (!object) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        const disposition = url.searchParams.get('response-content-disposition');
        res.writeHead(200, {
          'content-type': object.contentType,
          'content-length': String(object.body.length),
          etag: object.etag,
          ...(disposition ? { 'content-disposition': disposition } : {}),
        });
        return res.end(req.method === 'HEAD' ? undefined : object.body);
      }
      return xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed.');
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${port}`,
    port,
    region: options.region ?? 'us-east-1',
    ...creds,
    objects,
    uploads,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
