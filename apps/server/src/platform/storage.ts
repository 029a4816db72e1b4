// File storage behind one interface: local disk under DATA_DIR with HMAC-signed expiring URLs,
// or any S3-compatible service with real presigned URLs. Keys are made by the server only.
import { createHmac, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { dirname, resolve, sep } from 'node:path';
import type { S3Client as S3ClientClass } from '@aws-sdk/client-s3';
import type { Config } from '../config';
import { deriveKey, safeEqual } from './crypto';
import { lazy } from './lazy';

export const SIGNED_URL_TTL_SECONDS = 60 * 60;
/** S3's smallest part but the last (5 MiB): the memory a streamed put holds at once. */
export const S3_PART_BYTES = 5 * 1024 * 1024;

export type StoredBytes = { body: Buffer; mimeType: string };

export type Storage = {
  kind: 'local' | 's3';
  put(key: string, body: Buffer, mimeType: string): Promise<void>;
  /**
   * Stores a stream of unknown length (large uploads: imports) without holding it whole; a stream
   * that fails leaves nothing stored.
   */
  putStream(key: string, body: Readable, mimeType: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /** The object as a stream (large files: imports); null when there is none. */
  openStream(key: string): Promise<Readable | null>;
  /** Removes the object; a key that is already gone is not an error (retention retries). */
  delete(key: string): Promise<void>;
  signedUrl(key: string, fileName: string, ttlSeconds?: number): Promise<string>;
};

/** A server-made key: `{folder}/{uuid}/{safe file name}`; nothing from the client can climb out. */
export function makeKey(folder: string, fileName: string): string {
  const safe = safeFileName(fileName);
  return `${folder}/${randomUUID()}/${safe}`;
}

export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(-120);
  return cleaned || 'file';
}

export function isSafeKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= 500 &&
    !key.startsWith('/') &&
    key.split('/').every((part) => part !== '' && part !== '.' && part !== '..') &&
    /^[\w./-]+$/.test(key)
  );
}

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  private readonly root: string;
  private readonly signingKey: Buffer;

  constructor(
    dataDir: string,
    appSecret: string,
    private readonly publicUrl: string,
  ) {
    this.root = resolve(dataDir, 'files');
    this.signingKey = deriveKey(appSecret, 'file-urls');
  }

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error('unsafe storage key');
    const full = resolve(this.root, key);
    if (!full.startsWith(this.root + sep)) throw new Error('storage key escapes the storage root');
    return full;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, body, { flag: 'wx' });
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    try {
      await pipeline(body, createWriteStream(path, { flags: 'wx' }));
    } catch (err) {
      // 'wx' refused an existing file: that one is not ours to remove.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') await unlink(path).catch(() => undefined);
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async openStream(key: string): Promise<Readable | null> {
    const path = this.pathOf(key);
    try {
      await access(path);
    } catch {
      return null;
    }
    return createReadStream(path);
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  signature(key: string, exp: number): string {
    return createHmac('sha256', this.signingKey).update(`${key}\n${exp}`).digest('base64url');
  }

  verify(key: string, exp: number, sig: string, now = Date.now()): boolean {
    return Number.isSafeInteger(exp) && exp * 1000 > now && safeEqual(this.signature(key, exp), sig);
  }

  async signedUrl(key: string, _fileName: string, ttlSeconds = SIGNED_URL_TTL_SECONDS): Promise<string> {
    const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
    const path = key.split('/').map(encodeURIComponent).join('/');
    return `${this.publicUrl}/files/${path}?exp=${exp}&sig=${this.signature(key, exp)}`;
  }
}

export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  /** The AWS SDK (~6 MB of heap) and the client, made on the first call: only where S3 is used. */
  private readonly s3 = lazy(async () => {
    const [sdk, { getSignedUrl }] = await Promise.all([
      import('@aws-sdk/client-s3'),
      import('@aws-sdk/s3-request-presigner'),
    ]);
    return { ...sdk, getSignedUrl, client: this.makeClient(sdk.S3Client) };
  });

  constructor(private readonly config: Config & { S3_BUCKET: string }) {}

  private makeClient(S3Client: typeof S3ClientClass) {
    const config = this.config;
    return new S3Client({
      region: config.S3_REGION,
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      // The newer default checksums are not understood by every S3-compatible service.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
        ? {
            credentials: {
              accessKeyId: config.S3_ACCESS_KEY_ID,
              secretAccessKey: config.S3_SECRET_ACCESS_KEY,
            },
          }
        : {}),
    });
  }

  async put(key: string, body: Buffer, mimeType: string): Promise<void> {
    const { client, PutObjectCommand } = await this.s3();
    await client.send(
      new PutObjectCommand({ Bucket: this.config.S3_BUCKET, Key: key, Body: body, ContentType: mimeType }),
    );
  }

  /**
   * A multipart upload of S3_PART_BYTES parts, one in memory at a time (the SDK's own streaming
   * uploader, @aws-sdk/lib-storage, is not a dependency); a stream shorter than one part is one
   * PutObject. A failure aborts the upload, so no part is left stored.
   */
  async putStream(key: string, body: Readable, mimeType: string): Promise<void> {
    const Bucket = this.config.S3_BUCKET;
    const {
      client,
      AbortMultipartUploadCommand,
      CompleteMultipartUploadCommand,
      CreateMultipartUploadCommand,
      UploadPartCommand,
    } = await this.s3();
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let uploadId: string | undefined;
    const parts: { ETag: string | undefined; PartNumber: number }[] = [];
    /** Sends `pending` in parts of S3_PART_BYTES (the last, `all`: whatever is left). */
    const sendParts = async (all: boolean) => {
      let rest = Buffer.concat(pending, pendingBytes);
      while (rest.length >= S3_PART_BYTES || (all && rest.length > 0)) {
        const part = rest.subarray(0, S3_PART_BYTES);
        rest = rest.subarray(part.length);
        uploadId ??= (
          await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: mimeType }))
        ).UploadId;
        const PartNumber = parts.length + 1;
        const { ETag } = await client.send(
          new UploadPartCommand({ Bucket, Key: key, UploadId: uploadId, PartNumber, Body: part }),
        );
        parts.push({ ETag, PartNumber });
      }
      pending = rest.length ? [rest] : [];
      pendingBytes = rest.length;
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= S3_PART_BYTES) await sendParts(false);
      }
      if (uploadId === undefined) return await this.put(key, Buffer.concat(pending, pendingBytes), mimeType);
      await sendParts(true);
      await client.send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key: key,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      if (uploadId !== undefined)
        await client
          .send(new AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId }))
          .catch(() => undefined);
      throw err;
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const { client, GetObjectCommand } = await this.s3();
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: this.config.S3_BUCKET, Key: key }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async openStream(key: string): Promise<Readable | null> {
    const { client, GetObjectCommand } = await this.s3();
    try {
      const res = await client.send(new GetObjectCommand({ Bucket: this.config.S3_BUCKET, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const { client, DeleteObjectCommand } = await this.s3();
    await client.send(new DeleteObjectCommand({ Bucket: this.config.S3_BUCKET, Key: key }));
  }

  async signedUrl(key: string, fileName: string, ttlSeconds = SIGNED_URL_TTL_SECONDS): Promise<string> {
    const { client, getSignedUrl, GetObjectCommand } = await this.s3();
    return getSignedUrl(
      client,
      new GetObjectCommand({
        Bucket: this.config.S3_BUCKET,
        Key: key,
        ResponseContentDisposition: `inline; filename="${safeFileName(fileName)}"`,
      }),
      { expiresIn: ttlSeconds },
    );
  }
}

export function createStorage(config: Config): Storage {
  if (config.S3_BUCKET) return new S3Storage(config as Config & { S3_BUCKET: string });
  return new LocalStorage(config.DATA_DIR, config.APP_SECRET, config.PUBLIC_URL);
}
