// CSV imports as files come from spreadsheets: an encoding told from the whole file (never a
// replacement character stored from a guess), a file no encoding reads refused, the delimiters of
// European Excel and others detected and reported, and the consent the rows carry with its proof.
// (Its own file: the upload route allows 30 uploads a minute.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import iconv from 'iconv-lite';
import { IMPORT_ERRORS, type TBusiness, type TCustomerImport } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';
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
  business = await createBusiness(app, owner, 'Import Reading Co');
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

describe('customer imports: encodings, delimiters, consent', () => {
  it('reads a Windows-1252 file whose first accent comes after 70 KB, never storing U+FFFD', async () => {
    const lines = ['name,email'];
    for (let i = 0; lines.join('\n').length < 70 * 1024; i++) lines.push(`Plain ${i},plain${i}@late.example`);
    lines.push('José Müller,jose@late.example', 'Françoise Dœuf,francoise@late.example');
    const done = await importFile(iconv.encode(lines.join('\n'), 'windows-1252'));
    expect(done).toMatchObject({ status: 'done', encoding: 'windows-1252', failed: 0 });
    expect(await customersNamed('José Müller')).toHaveLength(1);
    expect(await customersNamed('Françoise Dœuf')).toHaveLength(1);
    const [garbled] = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from customers where business_id = $1 and name like '%' || chr(65533) || '%'`,
      [business.id],
    );
    expect(garbled?.n).toBe(0);
  });

  it('refuses a file that is neither UTF-8 nor Windows-1252, or not in the encoding chosen', async () => {
    // 0x81 and 0x8D mean nothing in Windows-1252, and are not UTF-8 either.
    const lines = ['name,email'];
    for (let i = 0; i < 3000; i++) lines.push(`Row ${i},row${i}@undecodable.example`);
    const bytes = Buffer.concat([
      Buffer.from(lines.join('\n')),
      Buffer.from('\nBad '),
      Buffer.from([0x81, 0x8d]),
      Buffer.from(',bad@undecodable.example\n'),
    ]);
    const res = await upload(bytes);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().result.file).toEqual([IMPORT_ERRORS.undecodable]);
    const chosen = await upload(iconv.encode('name,email\nZoë,zoe@chosen.example\n', 'windows-1252'), {
      encoding: 'utf-8',
    });
    expect(chosen.statusCode).toBe(400);
    expect(chosen.json().result.encoding).toEqual([IMPORT_ERRORS.notInEncoding('utf-8')]);
    // Nothing of either was stored or imported.
    const [count] = await rt.database.query<{ n: number }>(
      `select count(*)::int as n from customers where business_id = $1 and email like '%undecodable.example' or email like '%chosen.example'`,
      [business.id],
    );
    expect(count?.n).toBe(0);
  });

  it('reads semicolon, tab and pipe files, and says which delimiter it used', async () => {
    const files: [string, string, string][] = [
      // Excel in European locales: semicolons, and decimal commas in the cells.
      [
        'semicolon',
        'semicolon',
        'Name;E-Mail;Umsatz\nSemi Colon;semi@delim.example;1,5\n"Quoted; Name";q1@delim.example;2,0\n',
      ],
      ['tab', 'tab', 'name\temail\tcity\nTab Person\ttab@delim.example\tOslo\n'],
      ['pipe', 'pipe', 'name|email\nPipe Person|pipe@delim.example\n'],
      ['comma', 'comma', 'name,email,note\n"Comma; Person",comma@delim.example,"a;b;c"\n'],
    ];
    for (const [label, delimiter, csv] of files) {
      const done = await importFile(csv);
      expect(done, label).toMatchObject({ status: 'done', delimiter, failed: 0 });
    }
    expect(await customersNamed('Semi Colon')).toMatchObject([
      { email: 'semi@delim.example', fields: { umsatz: '1,5' } },
    ]);
    expect(await customersNamed('Quoted; Name')).toHaveLength(1);
    expect(await customersNamed('Tab Person')).toMatchObject([{ fields: { city: 'Oslo' } }]);
    expect(await customersNamed('Pipe Person')).toHaveLength(1);
    expect(await customersNamed('Comma; Person')).toMatchObject([{ fields: { note: 'a;b;c' } }]);
    // Chosen rather than detected.
    const chosen = await importFile('name;email\nChosen Semi;chosen@delim.example\n', {
      delimiter: 'semicolon',
    });
    expect(chosen.delimiter).toBe('semicolon');
  });

  it('asks what consent the rows carry, and keeps the proof with each customer it marks', async () => {
    await optOut(rt.database.db, {
      businessId: business.id,
      channel: 'email',
      address: 'gone@consent.example',
      reason: 'unsubscribed',
    });
    const proof = 'Newsletter form on shop.example, March 2024';
    const csv = [
      'name,email,phone',
      'Consent Mail,mail@consent.example,',
      'Consent Both,both@consent.example,+44 7911 123458',
      'Consent Gone,gone@consent.example,',
    ].join('\n');
    const refused = await upload(csv, { consent: 'subscribed' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().result.consent_proof).toEqual([IMPORT_ERRORS.consentProofRequired]);
    const badChannel = await upload(csv, {
      consent: 'subscribed',
      consent_proof: proof,
      consent_channels: 'fax',
    });
    expect(badChannel.statusCode).toBe(400);
    expect(Object.keys(badChannel.json().result)).toContain('consent_channels');

    const done = await importFile(csv, {
      consent: 'subscribed',
      consent_proof: proof,
      consent_channels: 'email,sms',
    });
    expect(done).toMatchObject({
      consent: 'subscribed',
      consent_proof: proof,
      consent_channels: ['email', 'sms'],
      inserted: 3,
    });
    const statuses = await rt.database.query<Record<string, string>>(
      `select name, email_status, sms_status, whatsapp_status from customers
        where business_id = $1 and name like 'Consent %' order by name`,
      [business.id],
    );
    expect(statuses).toEqual([
      {
        name: 'Consent Both',
        email_status: 'subscribed',
        sms_status: 'subscribed',
        whatsapp_status: 'unknown',
      },
      // The opt-out stands: an import's word never lifts it.
      {
        name: 'Consent Gone',
        email_status: 'unsubscribed',
        sms_status: 'unknown',
        whatsapp_status: 'unknown',
      },
      { name: 'Consent Mail', email_status: 'subscribed', sms_status: 'unknown', whatsapp_status: 'unknown' },
    ]);
    const records = await rt.database.query<Record<string, string>>(
      `select c.name, r.channel, r.status, r.source, r.method, r.proof, r.reference from consent_events r
        join customers c on c.id = r.customer_id where r.business_id = $1 order by c.name, r.channel`,
      [business.id],
    );
    expect(records).toEqual([
      {
        name: 'Consent Both',
        channel: 'email',
        status: 'subscribed',
        source: 'import',
        method: 'imported',
        proof,
        reference: `import:${done.id}`,
      },
      {
        name: 'Consent Both',
        channel: 'sms',
        status: 'subscribed',
        source: 'import',
        method: 'imported',
        proof,
        reference: `import:${done.id}`,
      },
      {
        name: 'Consent Mail',
        channel: 'email',
        status: 'subscribed',
        source: 'import',
        method: 'imported',
        proof,
        reference: `import:${done.id}`,
      },
    ]);

    // Without a consent choice nothing is claimed: new customers stay unknown, no record is made.
    const plain = await importFile('name,email\nConsent Unknown,unknown@consent.example\n');
    expect(plain).toMatchObject({ consent: 'unknown', consent_proof: null, consent_channels: [] });
    const [unknown] = await rt.database.query<{ email_status: string }>(
      `select email_status from customers where business_id = $1 and name = 'Consent Unknown'`,
      [business.id],
    );
    expect(unknown?.email_status).toBe('unknown');
    const [count] = await rt.database.query<{ n: number }>(
      'select count(*)::int as n from consent_events where business_id = $1',
      [business.id],
    );
    expect(count?.n).toBe(3);
  });
});
