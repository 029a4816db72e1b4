import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import mjml2html from 'mjml';
import type { TBusiness, TEmailTemplate, TEmailTemplateVersion } from '@titan/contracts';
import { EMAIL_TEMPLATE_ERRORS as M } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { insertCustomer } from '../../directory/directory.repository';
import {
  loadCompiledTemplate,
  renderCompiled,
  templateVariables,
  TemplateRenderError,
} from '../templates.service';

// Every MJML compile goes through this spy, so a test can tell that rendering compiles nothing.
vi.mock('mjml', async (importOriginal) => {
  const original = await importOriginal<{ default: typeof mjml2html }>();
  return { default: vi.fn(original.default) };
});
const mjmlSpy = vi.mocked(mjml2html);

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4860000000049454e44ae426082',
  'hex',
);

const MJML = `<mjml>
  <mj-body>
    <mj-section>
      <mj-column>
        <mj-text>Hello {{ customer.name | default: "there" }}</mj-text>
        <mj-text>Your code is {{ offer_code }} at {{ business.name }}.</mj-text>
        <mj-button href="https://shop.example/{{ offer_code }}">Shop now</mj-button>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let other: { owner: Session; business: TBusiness };

beforeAll(async () => {
  rt = await createTestRuntime({ env: { PUBLIC_URL: 'http://titan.test' } });
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer);
  business = await createBusiness(app, owner, 'Templates Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Elsewhere Ltd') };
});
afterAll(() => rt.destroy());

async function call(method: string, url: string, payload?: object, s = owner, b = business) {
  return app.inject({
    method: method as 'GET',
    url,
    headers: as(s, b),
    ...(payload ? { payload } : {}),
  });
}

async function create(body: Record<string, unknown> = {}): Promise<TEmailTemplate> {
  const res = await call('POST', '/api/template/', {
    name: `Welcome ${Math.random().toString(16).slice(2)}`,
    subject: 'Hi {{ customer.name }}',
    preheader: 'Your code {{ offer_code }}',
    format: 'mjml',
    content: MJML,
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().result;
}

function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[]) {
  const boundary = `----titan${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`));
    if (p.type) chunks.push(Buffer.from(`Content-Type: ${p.type}\r\n`));
    chunks.push(
      Buffer.from('\r\n'),
      Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function uploadImage(parts: Parameters<typeof multipart>[0], s = owner, b = business) {
  const { payload, contentType } = multipart(parts);
  return app.inject({
    method: 'POST',
    url: '/api/template/template-images/',
    headers: { ...as(s, b), 'content-type': contentType },
    payload,
  });
}

describe('email templates: saving and versions', () => {
  it('creates a template with its variables and version 1, and lists it without its source', async () => {
    const t = await create({ name: 'Spring welcome' });
    expect(t).toMatchObject({
      name: 'Spring welcome',
      subject: 'Hi {{ customer.name }}',
      format: 'mjml',
      version: 1,
      text_content: null,
      thumbnail_url: null,
      variables: ['business.name', 'customer.name', 'offer_code'],
    });
    const list = await call('GET', '/api/template/');
    expect(list.statusCode).toBe(200);
    const row = list.json().result.find((r: TEmailTemplate) => r.id === t.id);
    expect(row).toMatchObject({ name: 'Spring welcome', version: 1 });
    expect(row).not.toHaveProperty('content');
    const one = await call('GET', `/api/template/${t.id}/`);
    expect(one.json().result.content).toBe(MJML);
    // The spec's tracked event.
    const events = await rt.database.query<{ user_id: number; properties: Record<string, unknown> }>(
      `select user_id::int as user_id, properties from analytics_events where event = 'user_created_template' and business_id = $1`,
      [business.id],
    );
    expect(events).toContainEqual({
      user_id: owner.user.pk,
      properties: { template_id: t.id, channel: 'email', format: 'mjml' },
    });
  });

  it('keeps a version per save, restores one as a new version, and never rewrites history', async () => {
    const t = await create();
    const v2 = await call('PUT', `/api/template/${t.id}/`, { subject: 'Second {{ customer.name }}' });
    expect(v2.statusCode, v2.body).toBe(200);
    expect(v2.json().result).toMatchObject({ version: 2, subject: 'Second {{ customer.name }}' });
    const v3 = await call('PUT', `/api/template/${t.id}/`, {
      format: 'html',
      content: '<p>Plain {{ customer.email }}</p>',
      base_version: 2,
    });
    expect(v3.json().result).toMatchObject({
      version: 3,
      format: 'html',
      variables: ['customer.email', 'customer.name', 'offer_code'],
    });

    // A rename alone writes no version; a save that changes nothing neither.
    const renamed = await call('PUT', `/api/template/${t.id}/`, { name: `${t.name} (renamed)` });
    expect(renamed.json().result).toMatchObject({ version: 3, name: `${t.name} (renamed)` });
    const same = await call('PUT', `/api/template/${t.id}/`, { subject: 'Second {{ customer.name }}' });
    expect(same.json().result.version).toBe(3);

    const restored = await call('PUT', `/api/template/${t.id}/`, { restore_version: 1 });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().result).toMatchObject({
      version: 4,
      format: 'mjml',
      content: MJML,
      subject: 'Hi {{ customer.name }}',
      name: `${t.name} (renamed)`,
    });

    const versions = await call('GET', `/api/template/${t.id}/versions/`);
    const list = versions.json().result as TEmailTemplateVersion[];
    expect(list.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(list[1]).toMatchObject({ format: 'html', content: '<p>Plain {{ customer.email }}</p>' });
    expect(list[3]!.created_by).toBe(owner.user.pk);

    // A stale editor is refused instead of overwriting version 4.
    const stale = await call('PUT', `/api/template/${t.id}/`, { subject: 'Late', base_version: 3 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(M.staleVersion);
    const missing = await call('PUT', `/api/template/${t.id}/`, { restore_version: 99 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().result).toEqual({ restore_version: [M.versionNotFound] });
    const mixed = await call('PUT', `/api/template/${t.id}/`, { restore_version: 1, subject: 'x' });
    expect(mixed.json().result).toEqual({ restore_version: [M.restoreAlone] });
  });

  it('compiles MJML once per saved version: the version holds the HTML and renders call no MJML', async () => {
    const t = await create({ preheader: 'Save with {{ offer_code }}' });
    const [row] = await rt.database.query<{ compiled_html: string; compiled_text: string | null }>(
      'select compiled_html, compiled_text from email_template_versions where template_id = $1 and version = 1',
      [t.id],
    );
    expect(row!.compiled_html).toContain('<!doctype html>');
    expect(row!.compiled_html).toContain('{{ customer.name | default: "there" }}');
    expect(row!.compiled_html).not.toContain('<mj-text>');
    expect(row!.compiled_text).toContain('Hello {{ customer.name | default: "there" }}');

    mjmlSpy.mockClear();
    const compiled = await loadCompiledTemplate(rt.database.db, business.id, t.id);
    expect(compiled).toMatchObject({ id: t.id, version: 1, name: t.name });
    const again = await loadCompiledTemplate(rt.database.db, business.id, t.id);
    expect(again).toBe(compiled); // parsed once, cached by template id and version
    for (let i = 0; i < 200; i++) {
      const mail = renderCompiled(
        compiled!,
        templateVariables({
          business: { name: 'Templates Co' },
          customer: { id: i, name: `Ann ${i}`, email: `ann${i}@example.com`, phone: null },
          variables: { offer_code: `CODE${i}` },
        }),
      );
      expect(mail.subject).toBe(`Hi Ann ${i}`);
      expect(mail.html).toContain(`Hello Ann ${i}`);
      expect(mail.html).toContain(`https://shop.example/CODE${i}`);
      expect(mail.text).toContain(`Your code is CODE${i} at Templates Co.`);
    }
    expect(mjmlSpy).not.toHaveBeenCalled();

    // Another business never loads it.
    expect(await loadCompiledTemplate(rt.database.db, other.business.id, t.id)).toBeNull();
  });

  it('escapes variables in HTML, puts the preheader first in the body, and derives the text part', async () => {
    const t = await create({ preheader: 'Hello <{{ customer.name }}>' });
    const compiled = (await loadCompiledTemplate(rt.database.db, business.id, t.id))!;
    const mail = renderCompiled(compiled, {
      customer: { name: '<script>x</script>' },
      business: { name: 'B&B' },
      offer_code: 'Q',
    });
    expect(mail.html).not.toContain('<script>x</script>');
    expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(mail.html).toMatch(/<body[^>]*><div style="display:none;[^"]*">Hello &lt;&lt;script&gt;/);
    expect(mail.text).toContain('Hello <script>x</script>');
    expect(mail.text).toContain('Shop now [https://shop.example/Q]');
  });

  it('throws TemplateRenderError with the line when a strict variable is missing', async () => {
    const t = await create();
    const compiled = (await loadCompiledTemplate(rt.database.db, business.id, t.id))!;
    let error: unknown;
    try {
      renderCompiled(compiled, { customer: { name: 'Ann' }, business: { name: 'X' } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TemplateRenderError);
    // offer_code is first read in the preheader, line 1.
    expect((error as TemplateRenderError).field).toBe('preheader');
    expect((error as Error).message).toBe("Line 1: undefined variable 'offer_code'");

    const noPreheader = await create({ preheader: '' });
    const c2 = (await loadCompiledTemplate(rt.database.db, business.id, noPreheader.id))!;
    expect(() => renderCompiled(c2, { customer: { name: 'Ann' }, business: { name: 'X' } })).toThrow(
      "Line 6: undefined variable 'offer_code'",
    );
  });

  it('answers 400 with the line and the reason for bad Liquid and bad MJML', async () => {
    const badLiquid = await call('POST', '/api/template/', {
      name: 'Bad liquid',
      subject: 'Hi',
      format: 'html',
      content: '<p>one</p>\n<p>two</p>\n{% iff customer.name %}x{% endif %}',
    });
    expect(badLiquid.statusCode).toBe(400);
    expect(badLiquid.json().result).toEqual({ content: ["Line 3: unknown tag 'iff'"] });

    const badMjml = await call('POST', '/api/template/', {
      name: 'Bad MJML',
      subject: 'Hi',
      format: 'mjml',
      content:
        '<mjml>\n  <mj-body>\n    <mj-section>\n      <mj-colum><mj-text>x</mj-text></mj-colum>\n    </mj-section>\n  </mj-body>\n</mjml>',
    });
    expect(badMjml.statusCode).toBe(400);
    expect(badMjml.json().result.content).toContain(
      "Line 4: Element mj-colum doesn't exist or is not registered",
    );

    const notMjml = await call('POST', '/api/template/', {
      name: 'Not MJML',
      subject: 'Hi',
      format: 'mjml',
      content: 'just words',
    });
    expect(notMjml.statusCode).toBe(400);
    expect(notMjml.json().result.content[0]).toMatch(/^The MJML could not be parsed/);

    // MJML would drop Liquid between components silently (the block would always show): refused.
    const dropped = await call('POST', '/api/template/', {
      name: 'Dropped liquid',
      subject: 'Hi',
      format: 'mjml',
      content:
        '<mjml><mj-body><mj-section><mj-column>\n' +
        '{% if customer.vip %}<mj-text>VIP</mj-text>{% endif %}\n' +
        '<mj-raw>{% if customer.new %}</mj-raw><mj-text>New</mj-text><mj-raw>{% endif %}</mj-raw>\n' +
        '</mj-column></mj-section></mj-body></mjml>',
    });
    expect(dropped.statusCode).toBe(400);
    expect(dropped.json().result.content).toEqual([
      "Line 2: MJML drops Liquid placed between components ('{% if customer.vip %}'): put it inside <mj-raw> or a text component",
      "Line 2: MJML drops Liquid placed between components ('{% endif %}'): put it inside <mj-raw> or a text component",
    ]);

    const badSubject = await call('POST', '/api/template/', {
      name: 'Bad subject',
      subject: 'Hi {{ customer.name | shout }}',
      format: 'html',
      content: '<p>x</p>',
    });
    expect(badSubject.json().result).toEqual({ subject: ["Line 1: unknown filter 'shout'"] });

    const t = await create();
    const badSave = await call('PUT', `/api/template/${t.id}/`, { content: '<mjml>\n{% if %}' });
    expect(badSave.statusCode).toBe(400);
    expect(badSave.json().result.content[0]).toMatch(/^Line 2: /);
    expect((await call('GET', `/api/template/${t.id}/`)).json().result.version).toBe(1);
  });

  it('refuses templates that would read files, and stops runaway loops', async () => {
    for (const content of [
      "<p>{% include '/etc/passwd' %}</p>",
      "<p>{% render 'secrets' %}</p>",
      "<p>{% layout 'base' %}</p>",
    ]) {
      const res = await call('POST', '/api/template/', {
        name: 'Files',
        subject: 'x',
        format: 'html',
        content,
      });
      expect(res.statusCode, content).toBe(400);
      expect(res.json().result.content[0]).toMatch(/^Line 1: tag '(include|render|layout)' is not allowed/);
    }
    const loop = await create({
      format: 'html',
      preheader: '',
      subject: 'Loop',
      content:
        '<p>\n{% for i in (1..100000) %}{% for j in (1..100000) %}{{ j }}{% endfor %}{% endfor %}\n</p>',
    });
    const compiled = (await loadCompiledTemplate(rt.database.db, business.id, loop.id))!;
    const started = Date.now();
    expect(() => renderCompiled(compiled, {})).toThrow(TemplateRenderError);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 400 for bad input and 409-free names per business', async () => {
    const missing = await call('POST', '/api/template/', { name: '', format: 'txt' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().result).sort()).toEqual(['content', 'format', 'name', 'subject']);
    const t = await create({ name: 'Unique name' });
    const dup = await call('POST', '/api/template/', {
      name: 'unique NAME',
      subject: 'x',
      format: 'html',
      content: '<p>x</p>',
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().result).toEqual({ name: [M.nameTaken] });
    // Another business may use the same name.
    const elsewhere = await call(
      'POST',
      '/api/template/',
      { name: 'Unique name', subject: 'x', format: 'html', content: '<p>x</p>' },
      other.owner,
      other.business,
    );
    expect(elsewhere.statusCode).toBe(201);
    const empty = await call('PUT', `/api/template/${t.id}/`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().result).toEqual({ non_field_errors: [M.nothingToSave] });
    expect((await call('GET', '/api/template/abc/')).statusCode).toBe(400);
  });

  it('deletes a template with its versions', async () => {
    const t = await create();
    const res = await call('DELETE', `/api/template/${t.id}/`);
    expect(res.statusCode).toBe(204);
    expect((await call('GET', `/api/template/${t.id}/`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/template/${t.id}/`)).statusCode).toBe(404);
    const [n] = await rt.database.query<{ n: number }>(
      'select count(*)::int as n from email_template_versions where template_id = $1',
      [t.id],
    );
    expect(n!.n).toBe(0);
  });
});

describe('email templates: preview', () => {
  it('renders with sample variables, and with a customer of the business', async () => {
    const t = await create();
    const sample = await call('POST', `/api/template/${t.id}/preview/`, {
      variables: { customer: { name: 'Sample Sam' }, offer_code: 'S1' },
    });
    expect(sample.statusCode, sample.body).toBe(200);
    const preview = sample.json().result;
    expect(preview.subject).toBe('Hi Sample Sam');
    expect(preview.html).toContain('Hello Sample Sam');
    expect(preview.html).toContain('at Templates Co.');
    expect(preview.text).toContain('Your code is S1 at Templates Co.');
    expect(preview.errors).toEqual({});

    const customer = await insertCustomer(rt.database.db, {
      businessId: business.id,
      name: 'Carla Customer',
      email: 'carla@example.com',
      phone: '+15550001',
      fields: { plan: 'gold' },
    });
    const withCustomer = await call('POST', `/api/template/${t.id}/preview/`, {
      customer_id: customer.id,
      variables: { offer_code: 'C1', customer: { name: 'ignored' } },
    });
    expect(withCustomer.json().result).toMatchObject({ subject: 'Hi Carla Customer', errors: {} });

    // The customer's own fields are variables too.
    const fields = await call('POST', `/api/template/${t.id}/preview/`, {
      customer_id: customer.id,
      variables: { offer_code: 'C1' },
      draft: {
        subject: '{{ customer.plan }} for {{ customer.email }}',
        format: 'html',
        content: '<p>{{ customer.phone }}</p>',
      },
    });
    expect(fields.json().result).toMatchObject({ subject: 'gold for carla@example.com', errors: {} });
    expect(fields.json().result.html).toContain('+15550001');

    // Another business's customer is not found.
    const foreign = await insertCustomer(rt.database.db, { businessId: other.business.id, name: 'Foreign' });
    const refused = await call('POST', `/api/template/${t.id}/preview/`, { customer_id: foreign.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().result).toEqual({ customer_id: [M.customerNotFound] });
  });

  it('answers template problems in errors, with the line, beside an empty mail', async () => {
    const t = await create();
    const missing = await call('POST', `/api/template/${t.id}/preview/`, {
      variables: { customer: { name: 'Ann' } },
    });
    expect(missing.statusCode).toBe(200);
    expect(missing.json().result).toEqual({
      subject: '',
      html: '',
      text: '',
      errors: { preheader: ["Line 1: undefined variable 'offer_code'"] },
    });

    const draft = await call('POST', '/api/template/preview/', {
      variables: {},
      draft: {
        subject: 'ok',
        format: 'mjml',
        content: '<mjml>\n<mj-body>\n<mj-text>{% iff %}</mj-text>\n</mj-body>\n</mjml>',
      },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().result.errors).toEqual({ content: ["Line 3: unknown tag 'iff'"] });

    const good = await call('POST', '/api/template/preview/', {
      draft: {
        subject: 'Hello {{ business.name }}',
        format: 'html',
        content: '<p>{{ business.name | upcase }}</p>',
      },
    });
    expect(good.json().result).toMatchObject({ subject: 'Hello Templates Co', errors: {} });
    expect(good.json().result.html).toContain('<p>TEMPLATES CO</p>');
    expect(good.json().result.text).toBe('TEMPLATES CO');

    const noDraft = await call('POST', '/api/template/preview/', { variables: {} });
    expect(noDraft.statusCode).toBe(400);
  });
});

describe('email templates: images', () => {
  it('stores an image under template_images/{id or default} with a working public URL', async () => {
    const t = await create();
    const res = await uploadImage([
      { name: 'template_id', value: String(t.id) },
      { name: 'file', value: PNG, filename: 'logo.png', type: 'image/png' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const image = res.json().result;
    expect(image.key).toMatch(new RegExp(`^public/template_images/${t.id}/[0-9a-f-]{36}/logo\\.png$`));
    expect(image.url).toBe(`http://titan.test/${image.key}`);
    expect(image).toMatchObject({ mime_type: 'image/png', size: PNG.length, file_name: 'logo.png' });

    // Public: no credentials, as a mail client fetches it.
    const served = await app.inject({ method: 'GET', url: image.url.replace('http://titan.test', '') });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(served.rawPayload.equals(PNG)).toBe(true);

    const byDefault = await uploadImage([{ name: 'file', value: PNG, filename: 'x.png' }]);
    expect(byDefault.json().result.key).toMatch(/^public\/template_images\/default\//);
  });

  it('refuses a non-image (by its bytes), an empty or missing file, and another business template id', async () => {
    const html = await uploadImage([
      { name: 'file', value: '<svg onload="alert(1)"></svg>', filename: 'evil.png', type: 'image/png' },
    ]);
    expect(html.statusCode).toBe(400);
    expect(html.json().result).toEqual({ file: [M.notAnImage] });
    const empty = await uploadImage([{ name: 'file', value: Buffer.alloc(0), filename: 'x.png' }]);
    expect(empty.statusCode).toBe(400);
    const none = await uploadImage([{ name: 'template_id', value: '1' }]);
    expect(none.statusCode).toBe(400);
    expect(none.json().result).toEqual({ file: [M.noFile] });
    const badId = await uploadImage([
      { name: 'template_id', value: '../x' },
      { name: 'file', value: PNG, filename: 'x.png' },
    ]);
    expect(badId.statusCode).toBe(400);
    expect(Object.keys(badId.json().result)).toEqual(['template_id']);

    const theirs = await call(
      'POST',
      '/api/template/',
      { name: 'Theirs', subject: 'x', format: 'html', content: '<p>x</p>' },
      other.owner,
      other.business,
    );
    const foreign = await uploadImage([
      { name: 'template_id', value: String(theirs.json().result.id) },
      { name: 'file', value: PNG, filename: 'x.png' },
    ]);
    expect(foreign.statusCode).toBe(404);
    const notJson = await call('POST', '/api/template/template-images/', { file: 'x' });
    expect(notJson.statusCode).toBe(400);
  });

  it('refuses an image over 5 MB, and serves nothing but stored template images', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await uploadImage([{ name: 'file', value: big, filename: 'big.png' }]);
    expect([400, 413]).toContain(res.statusCode);
    expect(res.json().result).toEqual({ file: [M.imageTooLarge] });
    for (const url of [
      '/public/template_images/default/00000000-0000-0000-0000-000000000000/none.png',
      '/public/template_images/..%2F..%2Fetc/passwd',
    ]) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});

describe('email templates: permissions and tenancy', () => {
  it("answers 404 for another business's template on every route", async () => {
    const t = await create();
    const o = { s: other.owner, b: other.business };
    for (const [method, url, body] of [
      ['GET', `/api/template/${t.id}/`],
      ['PUT', `/api/template/${t.id}/`, { subject: 'Taken' }],
      ['PUT', `/api/template/${t.id}/`, { restore_version: 1 }],
      ['DELETE', `/api/template/${t.id}/`],
      ['GET', `/api/template/${t.id}/versions/`],
      ['POST', `/api/template/${t.id}/preview/`, { variables: {} }],
    ] as const) {
      const res = await call(method, url, body, o.s, o.b);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await call('GET', '/api/template/', undefined, o.s, o.b)).json().result).not.toContainEqual(
      expect.objectContaining({ id: t.id }),
    );
    expect((await call('GET', `/api/template/${t.id}/`)).json().result.version).toBe(1);
  });

  it('lets agents read and preview but not save', async () => {
    const t = await create();
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await call('GET', `/api/template/${t.id}/`, undefined, agent)).statusCode).toBe(200);
    expect(
      (
        await call(
          'POST',
          `/api/template/${t.id}/preview/`,
          { variables: { offer_code: 'x', customer: { name: 'a' } } },
          agent,
        )
      ).statusCode,
    ).toBe(200);
    expect((await call('PUT', `/api/template/${t.id}/`, { subject: 'x' }, agent)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/template/${t.id}/`, undefined, agent)).statusCode).toBe(403);
  });
});
