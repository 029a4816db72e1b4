// QR visitor forms: the schema saved and checked, the QR code decoding to the form's address (PNG
// and SVG), the public form read and submitted (customer created, then found again by email or
// phone and filled in, added to the list, consent kept), bad answers refused field by field, the
// limits per client address and per form, and another business refused everywhere.
import type { FastifyInstance } from 'fastify';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QR_CONSENT_WORDING,
  QR_FORM_DEFAULTS,
  QR_FORM_ERRORS,
  type TBusiness,
  type TDirectoryVisitor,
  type TQrSchema,
  type TSaveQrSchemaRequest,
} from '@titan/contracts';
import { as, clearOfWindowEdge, createBusiness, signUp, type Session } from '../../../testing/identity';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { optOut } from '../../consent/consent.service';
import { isSuppressed } from '../../suppressions/suppressions.service';
import { ConfirmTokens, CONFIRM_TTL_SECONDS } from '../qr-forms.confirm';

const PUBLIC_URL = 'https://titan.example.test';
const PER_IP = 4;
const PER_FORM = 30;

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let listId: number;
let other: { owner: Session; business: TBusiness; listId: number };

const base = '/api/business/qr-schema/';
const publicPath = (b: TBusiness, slug = 'visit') => `/api/public/qr-forms/${b.unique_code}/${slug}/`;

const FORM: TSaveQrSchemaRequest = {
  title: 'Join the Acme club',
  description: 'Offers and news from the shop.',
  fields: [
    { name: 'name', label: 'Your name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: false },
    { name: 'mobile', label: 'Mobile', type: 'phone', required: false },
    { name: 'visits', label: 'Visits a month', type: 'number', required: false },
    { name: 'store', label: 'Store', type: 'select', required: false, options: ['North', 'South'] },
    { name: 'note', label: 'Anything else?', type: 'textarea', required: false },
  ],
  consent: { email: true, sms: true, whatsapp: false },
  thank_you: 'See you soon!',
  slug: 'visit',
};

const call = (
  method: 'GET' | 'PUT' | 'POST',
  url: string,
  payload?: object,
  s: Session = owner,
  b: TBusiness = business,
) => app.inject({ method, url, headers: as(s, b), ...(payload ? { payload } : {}) });

let nextIp = 1;
/** Each submission from its own address unless told, so that only the tests of limits meet them. */
const submit = (b: TBusiness, body: object, slug = 'visit', ip = `198.51.100.${nextIp++}`) =>
  app.inject({ method: 'POST', url: publicPath(b, slug), payload: body, remoteAddress: ip });

async function directory(search: string, b = business, s = owner): Promise<TDirectoryVisitor[]> {
  const res = await call(
    'GET',
    `/api/business/customer-directory/?search=${encodeURIComponent(search)}`,
    undefined,
    s,
    b,
  );
  expect(res.statusCode).toBe(200);
  return res.json().result.results;
}

async function newList(s: Session, b: TBusiness, name: string, kind: 'static' | 'segment' = 'static') {
  const res = await call(
    'POST',
    '/api/business/customer-lists/',
    { name, kind, ...(kind === 'segment' ? { filter: { has_email: true } } : {}) },
    s,
    b,
  );
  expect(res.statusCode).toBe(201);
  return res.json().result.id as number;
}

/** The QR code in a PNG, read as a phone's camera app would. */
function decodePng(bytes: Buffer): string | null {
  const png = PNG.sync.read(bytes);
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

/**
 * The QR code in an SVG, drawn into pixels and read: the SVG is one path of horizontal runs
 * (`M x y h n m dx dy …`, half-unit strokes), so its modules are drawn exactly as a renderer would.
 */
function decodeSvg(svg: string): string | null {
  const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
  const scale = 8;
  const side = size * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  let x = 0;
  let y = 0;
  for (const [, op, args] of path.matchAll(/([MmHhVv])([^MmHhVv]*)/g)) {
    const n = args!
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (op === 'M') [x, y] = [n[0]!, n[1]!];
    else if (op === 'm') [x, y] = [x + n[0]!, y + n[1]!];
    else if (op === 'h') {
      const row = Math.floor(y);
      for (let col = x; col < x + n[0]!; col++)
        for (let py = row * scale; py < (row + 1) * scale; py++)
          for (let px = col * scale; px < (col + 1) * scale; px++)
            data.fill(0, (py * side + px) * 4, (py * side + px) * 4 + 3);
      x += n[0]!;
    } else throw new Error(`unexpected path command ${op}`);
  }
  return jsQR(data, side, side)?.data ?? null;
}

beforeAll(async () => {
  rt = await createTestRuntime({
    env: {
      PUBLIC_URL,
      QR_FORM_SUBMISSIONS_PER_IP_HOUR: String(PER_IP),
      QR_FORM_SUBMISSIONS_PER_FORM_HOUR: String(PER_FORM),
    },
  });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Acme Shoes');
  // National numbers on the form are read with the business's dial code.
  expect((await call('PUT', '/api/business/', { dial_code: '+44' })).statusCode).toBe(200);
  listId = await newList(owner, business, 'Met at the shop');
  const otherOwner = await signUp(app, rt.mailer);
  const otherBusiness = await createBusiness(app, otherOwner, 'Globex');
  other = {
    owner: otherOwner,
    business: otherBusiness,
    listId: await newList(otherOwner, otherBusiness, 'Globex list'),
  };
});
afterAll(() => rt?.destroy());

describe('the QR schema', () => {
  it('starts from a form not saved yet, whose QR code waits for the first save', async () => {
    const res = await call('GET', base);
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toEqual({
      ...QR_FORM_DEFAULTS,
      url: `${PUBLIC_URL}/v/${business.unique_code}/join`,
      qr_svg_url: '/api/business/qr-schema/qr.svg',
      qr_png_url: '/api/business/qr-schema/qr.png',
      submission_count: 0,
      created_at: null,
      updated_at: null,
    });
    const svg = await call('GET', `${base}qr.svg`);
    expect(svg.statusCode).toBe(404);
    expect(svg.json()).toEqual({ status: 404, message: QR_FORM_ERRORS.notSaved, result: null });
    expect((await app.inject({ method: 'GET', url: publicPath(business, 'join') })).statusCode).toBe(404);
  });

  it('refuses a form it could not use, naming each field', async () => {
    const res = await call('PUT', base, {
      title: '',
      fields: [
        { name: 'name', label: 'Name', type: 'text' },
        { name: 'name', label: 'Again', type: 'text' },
        { name: 'size', label: 'Size', type: 'select' },
        { name: 'Bad Name', label: 'Bad', type: 'text' },
      ],
      consent: { email: true, sms: true },
      slug: '-nope-',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, message: 'Invalid input.' });
    const errors = res.json().result;
    expect(errors).toMatchObject({
      title: ['This field may not be blank.'],
      'fields.3.name': ['Use lowercase letters, digits and _ (start with a letter).'],
      slug: [QR_FORM_ERRORS.slug],
    });
    // The form's own rules come once the fields themselves are well formed.
    const rules = await call('PUT', base, {
      title: 'Club',
      fields: [
        { name: 'name', label: 'Name', type: 'text' },
        { name: 'name', label: 'Again', type: 'text' },
        { name: 'size', label: 'Size', type: 'select' },
        { name: 'other', label: 'Other', type: 'text', options: ['x'] },
      ],
      consent: { email: true, sms: true },
    });
    expect(rules.statusCode).toBe(400);
    expect(rules.json().result).toEqual({
      'fields.1.name': [QR_FORM_ERRORS.duplicateName],
      'fields.2.options': [QR_FORM_ERRORS.selectNeedsOptions],
      'fields.3.options': [QR_FORM_ERRORS.optionsOnlyForSelect],
      fields: [QR_FORM_ERRORS.formNeedsContact],
      'consent.email': [QR_FORM_ERRORS.consentNeedsEmail],
      'consent.sms': [QR_FORM_ERRORS.consentNeedsPhone],
    });
    const twoEmails = await call('PUT', base, {
      title: 'Club',
      fields: [
        { name: 'email', label: 'Email', type: 'email' },
        { name: 'work_email', label: 'Work email', type: 'email' },
      ],
    });
    expect(twoEmails.json().result).toEqual({ 'fields.1.type': [QR_FORM_ERRORS.oneEmailField] });
    // A segment follows its conditions, and another business's list is not there at all.
    for (const id of [await newList(owner, business, 'Has email', 'segment'), other.listId]) {
      const list = await call('PUT', base, { ...FORM, list_id: id });
      expect(list.statusCode).toBe(400);
      expect(list.json().result).toEqual({ list_id: [QR_FORM_ERRORS.staticListOnly] });
    }
    expect((await call('GET', base)).json().result.created_at).toBeNull();
  });

  it('saves the form, keeps its address when a later save leaves it out, and reads it back', async () => {
    const res = await call('PUT', base, { ...FORM, list_id: listId });
    expect(res.statusCode).toBe(200);
    const saved: TQrSchema = res.json().result;
    expect(saved).toMatchObject({
      title: FORM.title,
      description: FORM.description,
      consent: { email: true, sms: true, whatsapp: false },
      list_id: listId,
      thank_you: 'See you soon!',
      slug: 'visit',
      active: true,
      url: `${PUBLIC_URL}/v/${business.unique_code}/visit`,
      submission_count: 0,
    });
    expect(saved.fields[0]).toEqual({ name: 'name', label: 'Your name', type: 'text', required: true });
    expect(saved.created_at).not.toBeNull();
    const { slug: _slug, ...withoutSlug } = FORM;
    const again = await call('PUT', base, { ...withoutSlug, list_id: listId });
    expect(again.json().result.slug).toBe('visit');
    expect((await call('GET', base)).json().result).toEqual(again.json().result);
  });

  it('draws a QR code, PNG and SVG, that reads as the form’s address', async () => {
    const url = `${PUBLIC_URL}/v/${business.unique_code}/visit`;
    const png = await call('GET', `${base}qr.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toBe('inline; filename="qr-visit.png"');
    expect(decodePng(png.rawPayload)).toBe(url);
    expect(PNG.sync.read(png.rawPayload).width).toBe(512);
    const small = await call('GET', `${base}qr.png?size=200`);
    expect(PNG.sync.read(small.rawPayload).width).toBe(200);
    expect(decodePng(small.rawPayload)).toBe(url);
    expect((await call('GET', `${base}qr.png?size=5`)).json().result).toEqual({
      size: ['Ensure this value is at least 128.'],
    });
    const svg = await call('GET', `${base}qr.svg`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(decodeSvg(svg.body)).toBe(url);
  });
});

describe('the public form', () => {
  it('shows the form to anyone with its address, and nothing for an unknown one', async () => {
    const res = await app.inject({ method: 'GET', url: publicPath(business) });
    expect(res.statusCode).toBe(200);
    expect(res.json().result).toEqual({
      business: { name: 'Acme Shoes', dial_code: '+44' },
      title: FORM.title,
      description: FORM.description,
      fields: (await call('GET', base)).json().result.fields,
      consent: { email: true, sms: true, whatsapp: false },
      thank_you: 'See you soon!',
    });
    for (const url of [
      `/api/public/qr-forms/no-such-business/visit/`,
      publicPath(business, 'join'),
      publicPath(other.business, 'join'),
    ]) {
      const missing = await app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json()).toEqual({ status: 404, message: QR_FORM_ERRORS.notFound, result: null });
      expect(
        (await app.inject({ method: 'POST', url, payload: { fields: { email: 'x@example.test' } } }))
          .statusCode,
      ).toBe(404);
    }
  });

  it('creates a customer, then finds them again by email or phone and fills in what was missing', async () => {
    const first = await submit(business, {
      fields: { name: 'Ada Lovelace', email: 'Ada@Example.TEST', visits: '3', store: 'North' },
      consent: { email: true },
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ status: 201, message: 'Created', result: null });
    const [ada, ...more] = await directory('ada@example.test');
    expect(more).toEqual([]);
    expect(ada).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      phone: null,
      fields: { visits: '3', store: 'North' },
      email_status: 'subscribed',
      sms_status: 'unknown',
      whatsapp_status: 'unknown',
    });

    // The same person, another day: the email in other letters, a phone (national, read as +44).
    const second = await submit(business, {
      fields: {
        name: 'Someone Else',
        email: 'ADA@example.test',
        mobile: '07911 123456',
        note: 'Loves boots',
      },
      consent: { sms: true },
    });
    expect(second.statusCode).toBe(201);
    const [again, ...none] = await directory('ada@example.test');
    expect(none).toEqual([]);
    expect(again).toMatchObject({
      id: ada!.id,
      // An unverified visitor fills in what is missing and never replaces what is stored.
      name: 'Ada Lovelace',
      phone: '+447911123456',
      fields: { visits: '3', store: 'North', note: 'Loves boots' },
      // Each visit's ticks add up; a box left empty takes nothing back.
      email_status: 'subscribed',
      sms_status: 'subscribed',
    });

    // Found by phone alone, written in international form.
    const third = await submit(business, { fields: { name: 'Ada', mobile: '+44 7911 123456' } });
    expect(third.statusCode).toBe(201);
    expect((await directory('+447911123456')).map((c) => c.id)).toEqual([ada!.id]);

    // Each submission put them on the form's list (once), and each is counted.
    const members = await call('GET', `/api/business/customer-lists/${listId}/members/`);
    expect(members.json().result.results.map((c: TDirectoryVisitor) => c.id)).toContain(ada!.id);
    expect((await call('GET', base)).json().result.submission_count).toBeGreaterThanOrEqual(3);
  });

  it('keeps each submission with the consent given and the words it was given in', async () => {
    const res = await submit(business, {
      fields: { name: 'Grace Hopper', email: 'grace@example.test', mobile: '07911123457' },
      consent: { email: true, sms: false, whatsapp: true },
    });
    expect(res.statusCode).toBe(201);
    const [grace] = await directory('grace@example.test');
    expect(grace).toMatchObject({
      email_status: 'subscribed',
      sms_status: 'unknown',
      whatsapp_status: 'unknown',
    });
    const rows = await rt.database.query<{ consent: unknown; created: boolean }>(
      'select consent, created from qr_form_submissions where customer_id = $1',
      [grace!.id],
    );
    // WhatsApp is not asked on this form: a box it does not show is not consent.
    expect(rows).toEqual([
      {
        created: true,
        consent: {
          email: { given: true, wording: QR_CONSENT_WORDING.email('Acme Shoes') },
          sms: { given: false, wording: QR_CONSENT_WORDING.sms('Acme Shoes') },
        },
      },
    ]);
  });

  it('keeps an earlier opt-out unless the box is ticked, and never lifts a bounce', async () => {
    const db = rt.database.db;
    const suppressed = (channel: 'email' | 'sms', address: string) =>
      isSuppressed(db, business.id, channel, address);
    await optOut(db, {
      businessId: business.id,
      channel: 'email',
      address: 'left@example.test',
      reason: 'unsubscribed',
    });
    await optOut(db, {
      businessId: business.id,
      channel: 'sms',
      address: '+447911123458',
      reason: 'unsubscribed',
    });
    await optOut(db, {
      businessId: business.id,
      channel: 'email',
      address: 'gone@example.test',
      reason: 'bounced',
    });

    // A new customer at an unsubscribed address who ticks nothing is still unsubscribed.
    await submit(business, { fields: { name: 'Left', email: 'left@example.test', mobile: '07911123458' } });
    expect((await directory('left@example.test'))[0]).toMatchObject({
      email_status: 'unsubscribed',
      sms_status: 'unsubscribed',
    });
    expect(await suppressed('email', 'left@example.test')).toBe(true);

    // Ticking the box changes nothing by itself: a stranger could type anyone's address.
    const ticked = await submit(business, {
      fields: { name: 'Left', email: 'left@example.test', mobile: '07911123458' },
      consent: { email: true, sms: true },
    });
    expect(ticked.statusCode).toBe(201);
    expect(ticked.json()).toEqual({ status: 201, message: 'Created', result: null });
    expect((await directory('left@example.test'))[0]).toMatchObject({
      email_status: 'unsubscribed',
      sms_status: 'unsubscribed',
    });
    expect(await suppressed('email', 'left@example.test')).toBe(true);
    expect(await suppressed('sms', '+447911123458')).toBe(true);

    // A bounced address stays bounced too, until its owner confirms.
    await submit(business, {
      fields: { name: 'Gone', email: 'gone@example.test' },
      consent: { email: true },
    });
    expect((await directory('gone@example.test'))[0]).toMatchObject({ email_status: 'bounced' });
    expect(await suppressed('email', 'gone@example.test')).toBe(true);
  });

  describe('double opt-in', () => {
    const confirmPath = '/api/public/qr-forms/confirm/';
    const confirm = (token: string, ip = '203.0.113.9') =>
      app.inject({ method: 'POST', url: confirmPath, payload: { token }, remoteAddress: ip });
    async function confirmationTo(address: string) {
      const mails = await rt.mailer.listOutbox(address);
      return mails.filter((m) => m.subject === 'Confirm your subscription to Acme Shoes');
    }
    const tokenOf = (mail: { links: string[] }) => {
      const link = mail.links.find((l) => l.startsWith(`${PUBLIC_URL}/engage/confirm?token=`))!;
      return decodeURIComponent(new URL(link).searchParams.get('token')!);
    };
    const events = (customerId: number) =>
      rt.database.query<{
        method: string;
        status: string;
        source: string;
        ip: string | null;
        address: string;
      }>(
        'select method, status, source, ip, address from consent_events where customer_id = $1 order by id',
        [customerId],
      );

    it('mails a confirmation instead of re-subscribing an unsubscribed or blocked address; the link subscribes', async () => {
      const db = rt.database.db;
      // One who unsubscribed from a mail, and one staff blocked in the directory.
      await optOut(db, {
        businessId: business.id,
        channel: 'email',
        address: 'ex@example.test',
        reason: 'unsubscribed',
      });
      await submit(business, { fields: { name: 'Blocked', email: 'blocked@example.test' } });
      const [blocked] = await directory('blocked@example.test');
      const put = await call('PUT', `/api/business/customer-directory/${blocked!.id}/`, {
        email_status: 'unsubscribed',
      });
      expect(put.statusCode, put.body).toBe(200);

      for (const address of ['ex@example.test', 'blocked@example.test']) {
        const res = await submit(business, {
          fields: { name: 'Me again', email: address },
          consent: { email: true },
        });
        // The same answer as for any address: the visitor learns nothing of its state.
        expect(res.statusCode).toBe(201);
        expect(res.json()).toEqual({ status: 201, message: 'Created', result: null });
        const [customer] = await directory(address);
        expect(customer).toMatchObject({ email_status: 'unsubscribed' });
        expect(await isSuppressed(db, business.id, 'email', address)).toBe(true);
        const [mail, ...more] = await confirmationTo(address);
        expect(more).toEqual([]);
        expect(mail!.text).toContain('nothing changes unless you confirm');

        const ok = await confirm(tokenOf(mail!));
        expect(ok.statusCode, ok.body).toBe(200);
        expect(ok.json().result).toEqual({ business_name: 'Acme Shoes', email: address, subscribed: true });
        expect((await directory(address))[0]).toMatchObject({ email_status: 'subscribed' });
        expect(await isSuppressed(db, business.id, 'email', address)).toBe(false);
        expect(await events(customer!.id)).toEqual([
          expect.objectContaining({
            method: 'confirmation_sent',
            status: 'unsubscribed',
            source: 'qr_form',
            address,
          }),
          { method: 'double_opt_in', status: 'subscribed', source: 'qr_form', ip: '203.0.113.9', address },
        ]);

        // Following it again changes nothing, even after a later unsubscribe.
        await optOut(db, { businessId: business.id, channel: 'email', address, reason: 'unsubscribed' });
        expect((await confirm(tokenOf(mail!))).statusCode).toBe(200);
        expect((await directory(address))[0]).toMatchObject({ email_status: 'unsubscribed' });
      }
    });

    it('subscribes a new address at once, with the tick kept as a single opt-in', async () => {
      await submit(
        business,
        { fields: { name: 'New', email: 'new-one@example.test' }, consent: { email: true } },
        'visit',
        '198.51.100.250',
      );
      const [customer] = await directory('new-one@example.test');
      expect(customer).toMatchObject({ email_status: 'subscribed' });
      expect(await confirmationTo('new-one@example.test')).toEqual([]);
      expect(await events(customer!.id)).toEqual([
        {
          method: 'single_opt_in',
          status: 'subscribed',
          source: 'qr_form',
          ip: '198.51.100.250',
          address: 'new-one@example.test',
        },
      ]);
    });

    it('refuses a forged, altered or expired link, and one whose customer has another address now', async () => {
      await optOut(rt.database.db, {
        businessId: business.id,
        channel: 'email',
        address: 'forged@example.test',
        reason: 'unsubscribed',
      });
      await submit(business, {
        fields: { name: 'F', email: 'forged@example.test' },
        consent: { email: true },
      });
      const token = tokenOf((await confirmationTo('forged@example.test'))[0]!);
      const [head, body, sig] = token.split('.');
      const claims = JSON.parse(Buffer.from(body!, 'base64url').toString());
      const altered = `${head}.${Buffer.from(JSON.stringify({ ...claims, adr: 'x@example.test' })).toString('base64url')}.${sig}`;
      const forged = await new ConfirmTokens('not-the-app-secret-0123456789abcdef').sign({
        businessId: claims.bid,
        customerId: claims.cid,
        submissionId: Number(claims.sub),
        address: claims.adr,
      });
      const expired = await new ConfirmTokens(rt.services.config.APP_SECRET).sign(
        {
          businessId: claims.bid,
          customerId: claims.cid,
          submissionId: Number(claims.sub),
          address: claims.adr,
        },
        Date.now() - (CONFIRM_TTL_SECONDS + 60) * 1000,
      );
      for (const bad of [altered, forged, expired, 'nonsense']) {
        const res = await confirm(bad);
        expect(res.statusCode).toBe(400);
        expect(res.json().result).toEqual({ token: [QR_FORM_ERRORS.confirmInvalid] });
      }
      expect((await directory('forged@example.test'))[0]).toMatchObject({ email_status: 'unsubscribed' });

      // The customer took another address since: the link no longer subscribes anyone.
      const [f] = await directory('forged@example.test');
      await call('PUT', `/api/business/customer-directory/${f!.id}/`, { email: 'moved@example.test' });
      expect((await confirm(token)).statusCode).toBe(400);
      expect((await directory('moved@example.test'))[0]!.email_status).not.toBe('subscribed');
    });

    it('leaves an opted-out phone as it is, with no text sent (SMS has no confirmation)', async () => {
      await optOut(rt.database.db, {
        businessId: business.id,
        channel: 'sms',
        address: '+447911123459',
        reason: 'unsubscribed',
      });
      const res = await submit(business, {
        fields: { name: 'Phone', mobile: '07911123459' },
        consent: { sms: true },
      });
      expect(res.statusCode).toBe(201);
      const [customer] = await directory('+447911123459');
      expect(customer).toMatchObject({ sms_status: 'unsubscribed' });
      expect(await events(customer!.id)).toEqual([]);
      const texts = await rt.database.query('select id from sends where customer_id = $1', [customer!.id]);
      expect(texts).toEqual([]);
    });

    it('does not let a tick for another person’s stored address subscribe it', async () => {
      // Found by the phone they typed, the customer keeps the email stored: the typed one is not it.
      await submit(business, {
        fields: { name: 'Owner', email: 'owner@example.test', mobile: '07911123460' },
      });
      await submit(business, {
        fields: { name: 'Stranger', email: 'stranger@example.test', mobile: '07911123460' },
        consent: { email: true },
      });
      const [owner] = await directory('+447911123460');
      expect(owner).toMatchObject({ email: 'owner@example.test', email_status: 'unknown' });
    });
  });

  it('refuses bad answers field by field, writing nothing', async () => {
    const before = (await call('GET', base)).json().result.submission_count;
    const res = await submit(business, {
      fields: { email: 'not-an-email', mobile: '12', visits: '3.5', store: 'East', note: 'x'.repeat(2001) },
      consent: { email: true },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 400,
      message: 'Invalid input.',
      result: {
        'fields.name': [QR_FORM_ERRORS.required],
        'fields.email': [QR_FORM_ERRORS.email],
        'fields.mobile': [QR_FORM_ERRORS.phone],
        'fields.visits': [QR_FORM_ERRORS.number],
        'fields.store': [QR_FORM_ERRORS.select],
        'fields.note': [QR_FORM_ERRORS.tooLong(2000)],
      },
    });
    const noContact = await submit(business, { fields: { name: 'Nobody' }, consent: { sms: true } });
    expect(noContact.json().result).toEqual({
      'fields.email': [QR_FORM_ERRORS.needsContact],
      'fields.mobile': [QR_FORM_ERRORS.needsContact],
    });
    const smsWithoutPhone = await submit(business, {
      fields: { name: 'Nobody', email: 'nobody@example.test' },
      consent: { sms: true },
    });
    expect(smsWithoutPhone.json().result).toEqual({ 'consent.sms': [QR_FORM_ERRORS.consentPhoneMissing] });
    const badShape = await submit(business, { fields: { name: ['x'] }, consent: { email: 'yes' } });
    expect(badShape.statusCode).toBe(400);
    expect(Object.keys(badShape.json().result).sort()).toEqual(['consent.email', 'fields.name']);
    expect((await directory('Nobody')).length).toBe(0);
    expect((await call('GET', base)).json().result.submission_count).toBe(before);
  });

  it('stops a form that is switched off', async () => {
    const { slug: _slug, ...rest } = FORM;
    await call('PUT', '/api/business/qr-schema/', { ...rest, active: false }, other.owner, other.business);
    expect((await app.inject({ method: 'GET', url: publicPath(other.business, 'join') })).statusCode).toBe(
      404,
    );
    expect(
      (await submit(other.business, { fields: { name: 'X', email: 'x@example.test' } }, 'join')).statusCode,
    ).toBe(404);
    await call('PUT', '/api/business/qr-schema/', { ...rest, active: true }, other.owner, other.business);
    expect((await app.inject({ method: 'GET', url: publicPath(other.business, 'join') })).statusCode).toBe(
      200,
    );
  });
});

describe('journeys', () => {
  it('a submission is form.submitted of its customer for a journey that listens, and nothing without one', async () => {
    const formEvents = async (b: TBusiness) =>
      rt.database.query<{ customer_id: string; properties: Record<string, unknown> }>(
        `select customer_id, properties from customer_events where business_id = $1 and name = 'form.submitted'`,
        [b.id],
      );
    const unheard = await submit(business, { fields: { name: 'Early Bird', email: 'early@example.test' } });
    expect(unheard.statusCode).toBe(201);
    expect(await formEvents(business)).toEqual([]);

    const journey = await call('POST', '/api/journeys/', {
      name: 'Thanks for visiting',
      graph: {
        nodes: [
          { id: 'start', type: 'trigger', config: { kind: 'event', event: 'form.submitted' } },
          { id: 'done', type: 'exit', config: {} },
        ],
        edges: [{ from: 'start', to: 'done' }],
      },
    });
    expect(journey.statusCode, journey.body).toBe(201);
    const published = await call('POST', `/api/journeys/${journey.json().result.id}/publish/`);
    expect(published.statusCode, published.body).toBe(200);
    const heard = await submit(business, { fields: { name: 'Vera Visitor', email: 'vera@example.test' } });
    expect(heard.statusCode).toBe(201);
    const [vera] = await directory('vera@example.test');
    const events = await formEvents(business);
    expect(events.map((e) => Number(e.customer_id))).toEqual([vera!.id]);
    expect(events[0]!.properties).toMatchObject({ form_slug: 'visit', customer_created: true });
    // Another business's form tells this business's journeys nothing.
    expect(await formEvents(other.business)).toEqual([]);
  });
});

describe('limits', () => {
  it('answers 429 with Retry-After to one address past its hourly allowance, and to a form past its own', async () => {
    await clearOfWindowEdge(3600);
    const ip = '203.0.113.9';
    const body = { fields: { name: 'Limit', email: 'limit@example.test' } };
    for (let i = 0; i < PER_IP; i++) expect((await submit(business, body, 'visit', ip)).statusCode).toBe(201);
    const refused = await submit(business, body, 'visit', ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({
      status: 429,
      message: `Too many attempts. Try again in ${refused.headers['retry-after']} seconds.`,
      result: null,
    });
    // The address is limited on every form, another business's too.
    expect((await submit(other.business, body, 'join', ip)).statusCode).toBe(429);

    // Other's form, from fresh addresses each time: its own allowance ends at PER_FORM.
    const fresh = () => `192.0.2.${nextIp++}`;
    for (let i = 0; i < PER_FORM; i++)
      expect((await submit(other.business, body, 'join', fresh())).statusCode).toBe(201);
    const full = await submit(other.business, body, 'join', fresh());
    expect(full.statusCode).toBe(429);
    expect(full.headers['retry-after']).toBeDefined();
    // Acme's form is not affected by Globex's.
    expect((await submit(business, body, 'visit', fresh())).statusCode).toBe(201);
  });
});

describe('another business', () => {
  it('is refused the schema, its QR codes and its list, and sees only its own form', async () => {
    for (const [method, url, payload] of [
      ['GET', base],
      ['PUT', base, { ...FORM }],
      ['GET', `${base}qr.svg`],
      ['GET', `${base}qr.png`],
    ] as const) {
      const res = await call(method, url, payload, other.owner, business);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const own = (await call('GET', base, undefined, other.owner, other.business)).json().result;
    expect(own.title).toBe(FORM.title);
    expect(own.url).toBe(`${PUBLIC_URL}/v/${other.business.unique_code}/join`);
    expect(own.list_id).toBeNull();
    const stolen = await call('PUT', base, { ...FORM, list_id: listId }, other.owner, other.business);
    expect(stolen.json().result).toEqual({ list_id: [QR_FORM_ERRORS.staticListOnly] });
    // Acme's form is as Acme saved it.
    expect((await call('GET', base)).json().result).toMatchObject({ slug: 'visit', list_id: listId });
  });
});
