// An import's upload streams into storage, on local disk and in an S3-compatible store (in parts):
// the stored bytes are the upload's, the checks read the whole file on the way (an invalid byte
// megabytes in is still caught), and a refused upload leaves nothing stored.
// (Its own file: the upload route allows 30 uploads a minute.)
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { startS3Sim, type S3Sim } from '@titan/s3-sim';
import { IMPORT_ERRORS, type TBusiness, type TCustomerImport } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { runImport } from '../customer-imports.service';

/** A CSV of `rows` customers, accents throughout, about 40 bytes a row. */
function csv(rows: number, tag: string): string {
  const lines = ['name,email,city'];
  for (let i = 0; i < rows; i++) lines.push(`Zoë Müller ${i},zoe${i}@${tag}.example,Évora`);
  return `${lines.join('\n')}\n`;
}

function form(file: Buffer, fields: Record<string, string> = {}, fieldsAfter: Record<string, string> = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append('file', new Blob([file], { type: 'text/csv' }), 'customers.csv');
  for (const [k, v] of Object.entries(fieldsAfter)) body.append(k, v);
  return body;
}

type Setup = { rt: TestRuntime; owner: Session; business: TBusiness };

async function setUp(env: Record<string, string> = {}): Promise<Setup> {
  const rt = await createTestRuntime({ env });
  await rt.app!.ready();
  const owner = await signUp(rt.app!, rt.mailer);
  const business = await createBusiness(rt.app!, owner, 'Streamed Upload Co');
  return { rt, owner, business };
}

const post = ({ rt, owner, business }: Setup, payload: FormData) =>
  rt.app!.inject({
    method: 'POST',
    url: '/api/business/customer-directory/import/',
    headers: as(owner, business),
    payload,
  });

const fileKeyOf = async ({ rt }: Setup, id: string) =>
  (
    await rt.database.query<{ file_key: string }>('select file_key from customer_imports where id = $1', [id])
  )[0]!.file_key;

describe('customer import uploads on local disk', () => {
  let s: Setup;
  beforeAll(async () => {
    s = await setUp();
  });
  afterAll(() => s.rt.destroy());

  /** Every file stored for the business's imports. */
  async function storedFiles(): Promise<string[]> {
    const dir = join(s.rt.config.DATA_DIR, 'files', 'customer_lists', String(s.business.id));
    return readdir(dir, { recursive: true, withFileTypes: true })
      .then((entries) => entries.filter((e) => e.isFile()).map((e) => e.name))
      .catch(() => []);
  }

  it('stores a 6 MB upload byte for byte and imports it as UTF-8', async () => {
    const file = Buffer.from(csv(150_000, 'big'));
    expect(file.length).toBeGreaterThan(6_000_000);
    const res = await post(s, form(file, { mode: 'skip' }));
    expect(res.statusCode, res.body).toBe(202);
    const created: TCustomerImport = res.json().result;
    expect(created).toMatchObject({ encoding: 'utf-8', delimiter: 'comma' });
    const stored = await s.rt.services.storage.get(await fileKeyOf(s, created.id));
    expect(stored?.equals(file)).toBe(true);
  });

  it('catches a byte no encoding reads megabytes into the file, and keeps nothing of it', async () => {
    const before = await storedFiles();
    // Valid UTF-8 but for a lone continuation byte 6 MB in, and 0x81 (undefined in Windows-1252).
    const file = Buffer.concat([
      Buffer.from(csv(150_000, 'late')),
      Buffer.from([0x81]),
      Buffer.from(',x@y.example\n'),
    ]);
    const res = await post(s, form(file));
    expect(res.statusCode).toBe(400);
    expect(res.json().result.file).toEqual([IMPORT_ERRORS.undecodable]);
    // Refused for its fields (after the file was read), for not being CSV: nothing stored either.
    expect((await post(s, form(Buffer.from(csv(10, 'bad')), { mode: 'sideways' }))).statusCode).toBe(400);
    const notCsv = await post(s, form(Buffer.from('\u0000\u0001\u0002 binary')));
    expect(notCsv.json().result.file).toEqual([IMPORT_ERRORS.notCsv]);
    expect(await storedFiles()).toEqual(before);
  });

  it('reads an encoding chosen after the file by reading the stored file again', async () => {
    const file = iconv.encode('name,email\nZoë Müller,zoe@mac.example\n', 'macintosh');
    const res = await post(s, form(file, { mode: 'skip' }, { encoding: 'macintosh' }));
    expect(res.statusCode, res.body).toBe(202);
    const created: TCustomerImport = res.json().result;
    expect(created.encoding).toBe('macintosh');
    await runImport(s.rt.services, created.id);
    const [row] = await s.rt.database.query<{ name: string }>(
      `select name from customers where business_id = $1 and email = 'zoe@mac.example'`,
      [s.business.id],
    );
    expect(row?.name).toBe('Zoë Müller');
    // Not in the encoding chosen after the file: refused, and not kept.
    const before = await storedFiles();
    // (UTF-16 without a BOM, but for a lone surrogate at its end.)
    const utf16 = Buffer.concat([iconv.encode(csv(10, 'utf16'), 'utf-16le'), Buffer.from([0x00, 0xd8])]);
    const wrong = await post(s, form(utf16, {}, { encoding: 'utf-16le' }));
    expect(wrong.json().result.encoding).toEqual([IMPORT_ERRORS.notInEncoding('utf-16le')]);
    expect(await storedFiles()).toEqual(before);
  });
});

describe('customer import uploads in an S3-compatible store', () => {
  let sim: S3Sim;
  let s: Setup;
  beforeAll(async () => {
    sim = await startS3Sim();
    s = await setUp({
      S3_BUCKET: 'titan',
      S3_ENDPOINT: sim.url,
      S3_REGION: sim.region,
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: sim.accessKeyId,
      S3_SECRET_ACCESS_KEY: sim.secretAccessKey,
    });
  });
  afterAll(async () => {
    await s.rt.destroy();
    await sim.close();
  });

  const ours = () =>
    [...sim.objects.keys()].filter((k) => k.startsWith(`titan/customer_lists/${s.business.id}/`));

  it('uploads a 12 MB file in parts, byte for byte, and imports it', async () => {
    const file = Buffer.from(csv(300_000, 'parts'));
    expect(file.length).toBeGreaterThan(12_000_000);
    const res = await post(s, form(file, { mode: 'skip' }));
    expect(res.statusCode, res.body).toBe(202);
    const created: TCustomerImport = res.json().result;
    const stored = sim.objects.get(`titan/${await fileKeyOf(s, created.id)}`);
    expect(stored?.body.equals(file)).toBe(true);
    expect(stored?.etag).toMatch(/-3"$/);
    expect(sim.uploads.size).toBe(0);
  });

  it('deletes a refused file, whether it went up in parts or in one piece', async () => {
    const before = ours();
    const big = Buffer.concat([Buffer.from(csv(300_000, 'refused')), Buffer.from([0x9d, 0x0a])]);
    const res = await post(s, form(big));
    expect(res.json().result.file).toEqual([IMPORT_ERRORS.undecodable]);
    const small = await post(s, form(Buffer.from('first,last\nAda,Lovelace\n')));
    expect(small.json().result.file).toEqual([IMPORT_ERRORS.noContactColumn]);
    expect(ours()).toEqual(before);
    expect(sim.uploads.size).toBe(0);
  });
});
