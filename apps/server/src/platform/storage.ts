// File storage behind one interface: local disk under DATA_DIR with HMAC-signed expiring URLs,
// or any S3-compatible service with real presigned URLs. Keys are made by the server only.
import { createHmac, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { access, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { dirname, resolve, sep } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config';
import { deriveKey, safeEqual } from './crypto';

export const SIGNED_URL_TTL_SECONDS = 60 * 60;

export type StoredBytes = { body: Buffer; mimeType: string };

export type Storage = {
  kind: 'local' | 's3';
  put(key: string, body: Buffer, mimeType: string): Promise<void>;
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
  private readonly client: S3Client;

  constructor(private readonly config: Config & { S3_BUCKET: string }) {
    this.client = new S3Client({
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
    await this.client.send(
      new PutObjectCommand({ Bucket: this.config.S3_BUCKET, Key: key, Body: body, ContentType: mimeType }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.config.S3_BUCKET, Key: key }));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async openStream(key: string): Promise<Readable | null> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.config.S3_BUCKET, Key: key }));
      return res.Body as Readable;
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchKey') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.S3_BUCKET, Key: key }));
  }

  async signedUrl(key: string, fileName: string, ttlSeconds = SIGNED_URL_TTL_SECONDS): Promise<string> {
    return getSignedUrl(
      this.client,
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
