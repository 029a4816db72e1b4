// CSV imports into the directory: the header reader and column mapping, every mode, duplicates
// within the file and against the directory, bad rows kept with their reasons (and an errors
// CSV), legacy encodings, refused files, a resumed import, the list it fills, another business.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import iconv from 'iconv-lite';
import { IMPORT_ERRORS, type TBusiness, type TCustomerImport } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { headerName } from '../csv-reading';
import { optOut } from '../../consent/consent.service';
import { runImport } from '../customer-imports.service';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Import Co');
  await rt.database.query(`update businesses set dial_code = '+44' where id = $1`, [business.id]);
});
afterAll(() => rt.destroy());

async function upload(
  file: Buffer | string,
  fields: Record<string, string> = {},
  who: { s: Session; b: TBusiness } = { s: owner, b: business },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append(
    'file',
    new Blob([typeof file === 'string' ? Buffer.from(file) : file], { type: 'text/csv' }),
    'customers.csv',
  );
  const res = await app.inject({
    method: 'POST',
    url: '/api/business/customer-directory/import/',
    headers: as(who.s, who.b),
    payload: form,
  });
  return res;
}

/** Uploads and runs the import to its end (the job's work, here in the test). */
async function importFile(
  file: Buffer | string,
  fields: Record<string, string> = {},
): Promise<TCustomerImport> {
  const res = await upload(file, fields);
  expect(res.statusCode, res.body).toBe(202);
  const created: TCustomerImport = res.json().result;
  await runImport(rt.services, created.id);
  return (await get(`/api/business/customer-directory/imports/${created.id}/`)).json().result;
}

const get = (url: string) => app.inject({ method: 'GET', url, headers: as(owner, business) });
const customersNamed = (name: string) =>
  rt.database.query<{
    name: string;
    email: string | null;
    phone: string | null;
    fields: Record<string, string>;
  }>('select name, email, phone, fields from customers where business_id = $1 and name = $2', [
    business.id,
    name,
  ]);

describe('customer imports', () => {
  it('reads headers as the spec says: lower-cased, control characters removed', () => {
    expect(headerName(' E-Mail\u0007 ')).toBe('e-mail');
    expect(headerName('\u0000Full\tName')).toBe('fullname');
  });

  it("marks imported customers whose address is suppressed, and reads phones from Titan's own export", async () => {
    await optOut(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      address: 'bounced@example.com',
      reason: 'bounced',
    });
    await optOut(rt.database.db, {
      businessId: business.id,
      channel: 'sms',
      address: '+447911123457',
      reason: 'unsubscribed',
    });
    const csv = [
      'name,email,phone',
      "Bo Unced,Bounced@Example.com,'+442071838750",
      'Fine Person,fine@example.com,',
      'Text Stopper,,+44 7911 123457',
    ].join('\n');
    const done = await importFile(csv);
    expect(done).toMatchObject({ status: 'done', inserted: 3, failed: 0 });
    // One lookup for the batch covers every channel: the texts stop, WhatsApp and email are untouched.
    const [stopper] = await rt.database.query<Record<string, string>>(
      'select email_status, sms_status, whatsapp_status from customers where business_id = $1 and name = $2',
      [business.id, 'Text Stopper'],
    );
    expect(stopper).toEqual({
      email_status: 'unknown',
      sms_status: 'unsubscribed',
      whatsapp_status: 'unknown',
    });
    const [bo] = await rt.database.query<{ email_status: string; phone: string }>(
      'select email_status, phone from customers where business_id = $1 and name = $2',
      [business.id, 'Bo Unced'],
    );
    expect(bo).toEqual({ email_status: 'bounced', phone: '+442071838750' });
    const [fine] = await rt.database.query<{ email_status: string }>(
      'select email_status from customers where business_id = $1 and name = $2',
      [business.id, 'Fine Person'],
    );
    expect(fine!.email_status).toBe('unknown');
  });

  it('imports good rows, keeps every bad one with its reason, dedupes the file, and fills a list', async () => {
    const list = (
      await app.inject({
        method: 'POST',
        url: '/api/business/customer-lists/',
        headers: as(owner, business),
        payload: { name: 'Imported' },
      })
    ).json().result;
    const csv = [
      'Full Name,E-mail,Phone,Plan,Notes',
      'Ada Lovelace,ADA@example.com,07911 123456,pro,first',
      'Bad Email,not-an-email,,free,',
      'No Contact,,,free,',
      'Ada Again,ada@example.com,,pro,dup',
      '"Quoted, Name",quoted@example.com,+1 202 555 0143,free,"multi',
      'line note"',
      'Bad Phone,,12,free,',
    ].join('\r\n');
    const done = await importFile(csv, { list_id: String(list.id) });
    expect(done).toMatchObject({
      status: 'done',
      processed_rows: 6,
      total_rows: 6,
      inserted: 2,
      updated: 0,
      skipped: 1,
      failed: 3,
      list_id: list.id,
    });
    expect(done.columns).toEqual([
      { name: 'full name', target: 'name' },
      { name: 'e-mail', target: 'email' },
      { name: 'phone', target: 'phone' },
      { name: 'plan', target: 'field:plan' },
      { name: 'notes', target: 'field:notes' },
    ]);
    const [ada] = await customersNamed('Ada Lovelace');
    // Email lower-cased; a national number read with the business's dial code, kept in E.164.
    expect(ada).toMatchObject({
      email: 'ada@example.com',
      phone: '+447911123456',
      fields: { plan: 'pro', notes: 'first' },
    });
    expect((await customersNamed('Quoted, Name'))[0]?.fields.notes).toBe('multi\r\nline note');
    // The list holds the two imported customers.
    expect((await get(`/api/business/customer-lists/${list.id}/`)).json().result.member_count).toBe(2);

    const errors = await get(done.errors_url!);
    expect(errors.headers['content-type']).toContain('text/csv');
    const lines = errors.body.trim().split('\r\n');
    expect(lines[0]).toBe('row,reason,full name,e-mail,phone,plan,notes');
    expect(lines.slice(1)).toEqual([
      '3,Invalid email address “not-an-email”.,Bad Email,not-an-email,,free,',
      '4,No email address or phone number.,No Contact,,,free,',
      '5,"Same email address as row 2; skipped.",Ada Again,ada@example.com,,pro,dup',
      '7,Invalid phone number “12”.,Bad Phone,,12,free,',
    ]);
  });

  it('skips, overwrites or merges a customer already in the directory', async () => {
    await importFile('name,email,city\nGrace Hopper,grace@example.com,Arlington\n');
    const skip = await importFile('name,email,city,rank\nG. Hopper,GRACE@example.com,New York,Admiral\n', {
      mode: 'skip',
    });
    expect(skip).toMatchObject({ inserted: 0, updated: 0, skipped: 1, errors_url: expect.any(String) });
    expect((await customersNamed('Grace Hopper'))[0]?.fields).toEqual({ city: 'Arlington' });

    await importFile('name,email,city,rank\n,grace@example.com,New York,Admiral\n', { mode: 'merge' });
    // Merge fills only what is empty: the stored city stays, rank is added.
    expect((await customersNamed('Grace Hopper'))[0]?.fields).toEqual({ city: 'Arlington', rank: 'Admiral' });

    const overwrite = await importFile('name,email,city\nAmazing Grace,grace@example.com,New York\n', {
      mode: 'overwrite',
    });
    expect(overwrite).toMatchObject({ inserted: 0, updated: 1 });
    expect((await customersNamed('Amazing Grace'))[0]?.fields).toEqual({ city: 'New York', rank: 'Admiral' });
  });

  it('reads Windows-1252, UTF-8 with a BOM and UTF-16, detected or chosen', async () => {
    await importFile(iconv.encode('name,email\nZoë Café,zoe@example.com\n', 'windows-1252'));
    expect(await customersNamed('Zoë Café')).toHaveLength(1);
    await importFile(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Email,Name\nbom@example.com,Bømund\n')]),
    );
    expect(await customersNamed('Bømund')).toHaveLength(1);
    await importFile(
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        iconv.encode('name,email\nŁucja,lucja@example.com\n', 'utf-16le'),
      ]),
    );
    expect(await customersNamed('Łucja')).toHaveLength(1);
    await importFile(iconv.encode('name,email\nRenée,renee@example.com\n', 'iso-8859-1'), {
      encoding: 'iso-8859-1',
    });
    expect(await customersNamed('Renée')).toHaveLength(1);
  });

  it('maps columns as told, and refuses files it cannot import with the reason', async () => {
    const mapped = await importFile('Kunde,Kontakt,Ignorieren\nHans,hans@example.com,x\n', {
      column_map: JSON.stringify({ Kunde: 'name', Kontakt: 'email', Ignorieren: 'ignore' }),
    });
    expect(mapped.columns.map((c) => c.target)).toEqual(['name', 'email', 'ignore']);
    expect(await customersNamed('Hans')).toHaveLength(1);

    const cases: [Buffer | string, Record<string, string>, string, string][] = [
      ['', {}, 'file', IMPORT_ERRORS.empty],
      ['name,company\nA,B\n', {}, 'file', IMPORT_ERRORS.noContactColumn],
      [Buffer.from([0, 1, 2, 3, 0, 0, 255]), { encoding: 'utf-8' }, 'file', IMPORT_ERRORS.notCsv],
      ['name,email\n', { column_map: '{not json' }, 'column_map', IMPORT_ERRORS.badColumnMap],
      [
        'name,email\n',
        { column_map: '{"missing":"email"}' },
        'column_map',
        IMPORT_ERRORS.unknownColumn('missing'),
      ],
      ['name,email\n', { mode: 'replace' }, 'mode', ''],
      ['name,email\n', { list_id: '999999' }, 'list_id', ''],
    ];
    for (const [file, fields, field, message] of cases) {
      const res = await upload(file, fields);
      expect(res.statusCode, `${field} ${JSON.stringify(fields)}`).toBe(400);
      if (message) expect(res.json().result[field]).toEqual([message]);
      else expect(Object.keys(res.json().result)).toContain(field);
    }
    const noFile = await app.inject({
      method: 'POST',
      url: '/api/business/customer-directory/import/',
      headers: as(owner, business),
      payload: (() => {
        const f = new FormData();
        f.append('mode', 'skip');
        return f;
      })(),
    });
    expect(noFile.json().result.file).toEqual([IMPORT_ERRORS.noFile]);
  });

  it('resumes after the last committed row, importing nobody twice', async () => {
    const res = await upload('name,email\nR1,r1@example.com\nR2,r2@example.com\nR3,r3@example.com\n');
    const created: TCustomerImport = res.json().result;
    // As if a run had committed the first two rows and stopped.
    await importFile('name,email\nR1,r1@example.com\nR2,r2@example.com\n');
    await rt.database.query(
      `update customer_imports set status = 'running', processed_rows = 2 where id = $1`,
      [created.id],
    );
    await runImport(rt.services, created.id);
    const done = (await get(`/api/business/customer-directory/imports/${created.id}/`)).json().result;
    expect(done).toMatchObject({ status: 'done', processed_rows: 3, inserted: 1 });
    const [count] = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from customers where business_id = $1 and email like 'r_@example.com'`,
      [business.id],
    );
    expect(count?.n).toBe(3);
  });

  it('skips a repeat of a row from an earlier batch, and of a row committed before a resume', async () => {
    // 1,000 rows a batch: row 1,003 is in the second batch and repeats row 2's email.
    const lines = ['name,email,phone'];
    for (let i = 1; i <= 1_000; i++) lines.push(`Batch ${i},batch${i}@example.com,`);
    lines.push('Late Twin,BATCH1@example.com,', 'Phone Twin,,+44 7911 000001');
    lines.splice(3, 0, 'Phone First,,+44 7911 000001');
    const done = await importFile(lines.join('\n'));
    expect(done).toMatchObject({ processed_rows: 1_003, inserted: 1_001, skipped: 2, failed: 0 });
    const errors = (await get(done.errors_url!)).body.trim().split('\r\n');
    expect(errors.slice(1)).toEqual([
      '1003,"Same email address as row 2; skipped.",Late Twin,BATCH1@example.com,',
      // A leading + is quoted so a spreadsheet does not read a formula.
      '1004,"Same phone number as row 4; skipped.",Phone Twin,,\'+44 7911 000001',
    ]);

    // Stopped after its first row: the resumed run still knows row 2 had that customer.
    const res = await upload(
      'name,email\nFirst Run,first-run@example.com\nSecond Run,FIRST-RUN@example.com\n',
    );
    const created: TCustomerImport = res.json().result;
    await importFile('name,email\nFirst Run,first-run@example.com\n');
    await rt.database.query(
      `update customer_imports set status = 'running', processed_rows = 1, inserted = 1 where id = $1`,
      [created.id],
    );
    await runImport(rt.services, created.id);
    const resumed: TCustomerImport = (
      await get(`/api/business/customer-directory/imports/${created.id}/`)
    ).json().result;
    expect(resumed).toMatchObject({ status: 'done', processed_rows: 2, inserted: 1, skipped: 1 });
    expect((await get(resumed.errors_url!)).body.trim().split('\r\n')[1]).toBe(
      '3,"Same email address as row 2; skipped.",Second Run,FIRST-RUN@example.com',
    );
  });

  it("keeps the refused rows from agent-role members: they are the file's people, nobody's scope", async () => {
    const done = await importFile('name,email\nKnown,known@example.test\nSecret Person,not-an-email\n');
    expect(done.errors_url).not.toBe(null);
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    const asAgent = (url: string) => app.inject({ method: 'GET', url, headers: as(agent, business) });
    // The progress is figures only: readable.
    expect((await asAgent(`/api/business/customer-directory/imports/${done.id}/`)).statusCode).toBe(200);
    const refused = await asAgent(done.errors_url!);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('Secret Person');
    // An admin reads them, as the owner does.
    const admin = await addMember(app, rt.mailer, owner, business, 'admin');
    const read = await app.inject({ method: 'GET', url: done.errors_url!, headers: as(admin, business) });
    expect(read.statusCode).toBe(200);
    expect(read.body).toContain('Secret Person');
  });

  it('answers another business 404 for an import and its errors', async () => {
    const done = await importFile('name,email\nX,bad\n');
    const intruder = await signUp(app, rt.mailer);
    const theirs = await createBusiness(app, intruder, 'Intruder Imports');
    for (const url of [`/api/business/customer-directory/imports/${done.id}/`, done.errors_url!]) {
      const res = await app.inject({ method: 'GET', url, headers: as(intruder, theirs) });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
