// The brand for mail and saved blocks (issue 31): validation answers 400 with field messages, a
// business sees and deletes only its own, and what the brand and blocks make is MJML that saves and
// renders as any template (the footer's unsubscribe link filled by the send's variable).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  EMAIL_BLOCK_MAX_CHARS,
  EMAIL_BRAND_DEFAULTS,
  EMAIL_BRAND_ERRORS as M,
  emailBrandBlocks,
  emailBrandStarter,
  type TBusiness,
  type TEmailBlock,
  type TEmailBrand,
} from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { as, createBusiness, signUp, type Session } from '../../../testing/identity';

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
  business = await createBusiness(app, owner, 'Brand Co');
  const otherOwner = await signUp(app, rt.mailer);
  other = { owner: otherOwner, business: await createBusiness(app, otherOwner, 'Elsewhere Ltd') };
});
afterAll(() => rt.destroy());

async function call(method: string, url: string, payload?: object, s = owner, b = business) {
  return app.inject({ method: method as 'GET', url, headers: as(s, b), ...(payload ? { payload } : {}) });
}

const BRAND = {
  logo_url: 'http://titan.test/public/template_images/default/logo.png',
  primary_color: '#FF5500',
  text_color: '#222222',
  font_family: 'Georgia',
  footer_address: 'Brand Co, 1 Market St\nSpringfield <IL>',
} as const;

describe('the brand for mail', () => {
  it('answers the defaults until saved, then what was saved (colours lower-cased)', async () => {
    const before = await call('GET', '/api/template/brand/');
    expect(before.statusCode).toBe(200);
    expect(before.json().result).toEqual(EMAIL_BRAND_DEFAULTS);

    const saved = await call('PUT', '/api/template/brand/', BRAND);
    expect(saved.statusCode, saved.body).toBe(200);
    const brand: TEmailBrand = saved.json().result;
    expect(brand).toMatchObject({ ...BRAND, primary_color: '#ff5500' });
    expect(brand.updated_at).not.toBeNull();

    // A second save replaces the first.
    const again = await call('PUT', '/api/template/brand/', {
      ...BRAND,
      logo_url: null,
      font_family: 'Arial',
    });
    expect(again.statusCode).toBe(200);
    const read = (await call('GET', '/api/template/brand/')).json().result;
    expect(read).toMatchObject({
      logo_url: null,
      font_family: 'Arial',
      footer_address: BRAND.footer_address,
    });
  });

  it('refuses a bad colour, font or logo URL with a message per field', async () => {
    const res = await call('PUT', '/api/template/brand/', {
      ...BRAND,
      primary_color: 'orange',
      font_family: 'Comic Sans',
      logo_url: 'javascript:alert(1)',
    });
    expect(res.statusCode).toBe(400);
    const errors = res.json().result;
    expect(errors.primary_color).toEqual([M.color]);
    expect(errors.logo_url).toEqual([M.logoUrl]);
    expect(errors.font_family?.length).toBeGreaterThan(0);
    expect(errors.text_color).toBeUndefined();
  });

  it('is the business’s own: another business reads its defaults and its save leaves this one alone', async () => {
    await call('PUT', '/api/template/brand/', BRAND);
    const theirs = await call('GET', '/api/template/brand/', undefined, other.owner, other.business);
    expect(theirs.json().result).toEqual(EMAIL_BRAND_DEFAULTS);
    await call(
      'PUT',
      '/api/template/brand/',
      { ...BRAND, primary_color: '#000000' },
      other.owner,
      other.business,
    );
    expect((await call('GET', '/api/template/brand/')).json().result.primary_color).toBe('#ff5500');
  });

  it('makes a template that saves, and whose footer links the send’s unsubscribe URL', async () => {
    const brand = (await call('GET', '/api/template/brand/')).json().result as TEmailBrand;
    const content = emailBrandStarter(brand);
    const created = await call('POST', '/api/template/', {
      name: 'From brand',
      subject: 'News from {{ business.name }}',
      format: 'mjml',
      content,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().result.content).toBe(content);
    const preview = await call('POST', `/api/template/${created.json().result.id}/preview/`, {
      variables: { unsubscribe_url: 'http://titan.test/engage/unsubscribe?token=abc' },
    });
    expect(preview.statusCode).toBe(200);
    const { html, errors } = preview.json().result;
    expect(errors).toEqual({});
    expect(html).toContain('href="http://titan.test/engage/unsubscribe?token=abc"');
    expect(html).toContain('Brand Co, 1 Market St<br />Springfield &lt;IL&gt;');
    expect(html).toContain(BRAND.logo_url);
    expect(html.toLowerCase()).toContain('#ff5500');
    // Every brand block is MJML on its own too.
    expect(emailBrandBlocks(brand).map((b) => b.label)).toEqual([
      'Header with logo',
      'Button in brand colour',
      'Footer',
    ]);
  });
});

describe('saved blocks', () => {
  const SECTION = '<mj-section><mj-column><mj-text>Opening hours: 9 to 5</mj-text></mj-column></mj-section>';

  it('saves a block, lists it by name, and deletes it', async () => {
    const made = await call('POST', '/api/template/blocks/', { name: '  Opening hours ', content: SECTION });
    expect(made.statusCode, made.body).toBe(201);
    const block: TEmailBlock = made.json().result;
    expect(block).toMatchObject({ name: 'Opening hours', content: SECTION });
    await call('POST', '/api/template/blocks/', { name: 'Address', content: SECTION });

    const list = await call('GET', '/api/template/blocks/');
    expect(list.statusCode).toBe(200);
    expect(list.json().result.map((b: TEmailBlock) => b.name)).toEqual(['Address', 'Opening hours']);

    expect((await call('DELETE', `/api/template/blocks/${block.id}/`)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/template/blocks/${block.id}/`)).statusCode).toBe(404);
    expect(
      (await call('GET', '/api/template/blocks/')).json().result.map((b: TEmailBlock) => b.name),
    ).toEqual(['Address']);
  });

  it('refuses a block without a name, one that is not MJML, one too large, and a taken name', async () => {
    const empty = await call('POST', '/api/template/blocks/', { name: '  ', content: '<p>Hi</p>' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().result.name?.length).toBeGreaterThan(0);
    expect(empty.json().result.content).toEqual([M.blockNotMjml]);

    const large = await call('POST', '/api/template/blocks/', {
      name: 'Large',
      content: `<mj-text>${'x'.repeat(EMAIL_BLOCK_MAX_CHARS)}</mj-text>`,
    });
    expect(large.statusCode).toBe(400);
    expect(large.json().result.content).toEqual([M.blockTooLarge]);

    await call('POST', '/api/template/blocks/', { name: 'Twice', content: SECTION });
    const taken = await call('POST', '/api/template/blocks/', { name: 'twice', content: SECTION });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().result).toEqual({ name: [M.blockNameTaken] });
  });

  it('keeps each business’s blocks to itself: another business’s block is not found', async () => {
    const mine: TEmailBlock = (
      await call('POST', '/api/template/blocks/', { name: 'Mine only', content: SECTION })
    ).json().result;
    const theirList = await call('GET', '/api/template/blocks/', undefined, other.owner, other.business);
    expect(theirList.json().result).toEqual([]);
    const theirDelete = await call(
      'DELETE',
      `/api/template/blocks/${mine.id}/`,
      undefined,
      other.owner,
      other.business,
    );
    expect(theirDelete.statusCode).toBe(404);
    // The same name is free in another business.
    const same = await call(
      'POST',
      '/api/template/blocks/',
      { name: 'Mine only', content: SECTION },
      other.owner,
      other.business,
    );
    expect(same.statusCode).toBe(201);
    expect(
      (await call('GET', '/api/template/blocks/')).json().result.map((b: TEmailBlock) => b.id),
    ).toContain(mine.id);
  });

  it('records brand saves and block changes in the audit log under their own names', async () => {
    const blocks = await call('GET', '/api/audit-log/?object_type=email_block');
    expect(blocks.statusCode).toBe(200);
    const actions = blocks.json().result.results.map((e: { action: string }) => e.action);
    expect(actions.some((a: string) => a.includes('created'))).toBe(true);
    expect(actions.some((a: string) => a.includes('deleted'))).toBe(true);
    const brand = await call('GET', '/api/audit-log/?object_type=email_brand');
    expect(brand.json().result.results.length).toBeGreaterThan(0);
  });
});
