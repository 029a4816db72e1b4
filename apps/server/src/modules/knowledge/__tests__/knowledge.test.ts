// The knowledge base through the API: categories and articles, sections indexed for full-text search
// in the article's language, the public help centre (published only, by business code), feedback,
// another business's articles never found, and bad input answered with field errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TBusiness, TKbArticle, TKbCategory, TKbSearchHit } from '@titan/contracts';
import { createTestRuntime, type TestRuntime } from '../../../testing/test-runtime';
import { addMember, as, createBusiness, signUp, type Session } from '../../../testing/identity';
import { chunkMarkdown } from '..';

let rt: TestRuntime;
let app: FastifyInstance;
let owner: Session;
let business: TBusiness;
let rival: Session;
let rivalBusiness: TBusiness;

beforeAll(async () => {
  rt = await createTestRuntime();
  app = rt.app!;
  await app.ready();
  owner = await signUp(app, rt.mailer, { firstName: 'Kay' });
  business = await createBusiness(app, owner, 'Knowing');
  rival = await signUp(app, rt.mailer, { firstName: 'Rue' });
  rivalBusiness = await createBusiness(app, rival, 'Rival');
});
afterAll(() => rt.destroy());

async function call(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  who: Session | null = owner,
  biz: TBusiness = business,
) {
  const res = await app.inject({
    method,
    url,
    headers: who ? as(who, biz) : {},
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : null };
}

async function article(payload: object, who = owner, biz = business): Promise<TKbArticle> {
  const res = await call('POST', '/api/kb/articles/', payload, who, biz);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.result as TKbArticle;
}

const search = async (q: string, extra = '', who = owner, biz = business): Promise<TKbSearchHit[]> => {
  const res = await call('GET', `/api/kb/search/?q=${encodeURIComponent(q)}${extra}`, undefined, who, biz);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.results as TKbSearchHit[];
};

describe('chunkMarkdown', () => {
  it('splits at headings outside code fences, keeping each section’s heading', () => {
    const chunks = chunkMarkdown(
      'Intro line.\n\n# Shipping\nWe ship daily.\n\n```\n# not a heading\n```\n\n## Returns\nWithin 30 days.',
    );
    expect(chunks).toEqual([
      { heading: '', content: 'Intro line.' },
      { heading: 'Shipping', content: 'We ship daily.\n\n```\n# not a heading\n```' },
      { heading: 'Returns', content: 'Within 30 days.' },
    ]);
  });

  it('cuts a long section between paragraphs, never above the limit', () => {
    const paragraph = 'word '.repeat(200).trim();
    const chunks = chunkMarkdown(`# Long\n\n${[paragraph, paragraph, paragraph].join('\n\n')}`);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.heading).toBe('Long');
      expect(c.content.length).toBeLessThanOrEqual(1500);
    }
    expect(chunks.map((c) => c.content).join('\n\n')).toBe([paragraph, paragraph, paragraph].join('\n\n'));
  });
});

describe('knowledge base', () => {
  let shipping: TKbCategory;

  it('keeps categories, refusing a name already used', async () => {
    const res = await call('POST', '/api/kb/categories/', {
      name: 'Shipping & returns',
      description: 'Parcels',
    });
    expect(res.status).toBe(201);
    shipping = res.body.result;
    expect(shipping).toMatchObject({
      name: 'Shipping & returns',
      slug: 'shipping-returns',
      article_count: 0,
    });
    const again = await call('POST', '/api/kb/categories/', { name: 'Shipping & returns' });
    expect(again.status).toBe(400);
    expect(again.body.result).toEqual({ name: ['Another category already has this name.'] });
    const blank = await call('POST', '/api/kb/categories/', { name: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body.result.name).toEqual(['Give the category a name.']);
  });

  it('writes, lists, edits and deletes articles', async () => {
    const created = await article({
      title: 'Where is my parcel?',
      body_markdown: '## Tracking\n\nUse the tracking link in your shipping email.',
      category_id: shipping.id,
    });
    expect(created).toMatchObject({
      title: 'Where is my parcel?',
      slug: 'where-is-my-parcel',
      status: 'draft',
      locale: 'en',
      category_id: shipping.id,
      published_at: null,
    });
    const list = await call('GET', '/api/kb/articles/?status=draft');
    expect(list.body.result.results.map((a: TKbArticle) => a.id)).toContain(created.id);
    expect(list.body.result.results[0]).not.toHaveProperty('body_markdown');

    const published = await call('PUT', `/api/kb/articles/${created.id}/`, { status: 'published' });
    expect(published.status).toBe(200);
    expect(published.body.result.published_at).not.toBeNull();
    // An edit changes only what it names.
    expect(published.body.result).toMatchObject({ category_id: shipping.id, title: 'Where is my parcel?' });
    expect(published.body.result.body_markdown).toContain('tracking link');
    const categories = await call('GET', '/api/kb/categories/');
    expect(categories.body.result.find((c: TKbCategory) => c.id === shipping.id).article_count).toBe(1);

    const gone = await article({ title: 'Old page' });
    expect((await call('DELETE', `/api/kb/articles/${gone.id}/`)).status).toBe(204);
    expect((await call('GET', `/api/kb/articles/${gone.id}/`)).status).toBe(404);
  });

  it('refuses bad input with field errors, writing nothing', async () => {
    const before = (await call('GET', '/api/kb/articles/')).body.result.count;
    const bad = await call('POST', '/api/kb/articles/', { title: '', locale: 'english', status: 'live' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.result).sort()).toEqual(['locale', 'status', 'title']);
    expect(bad.body.result.locale).toEqual(['Enter a language code such as en, de or pt-BR.']);
    const foreign = await call('GET', '/api/kb/categories/', undefined, rival, rivalBusiness);
    expect(foreign.body.result).toEqual([]);
    const rivalCategory = (
      await call('POST', '/api/kb/categories/', { name: 'Theirs' }, rival, rivalBusiness)
    ).body.result as TKbCategory;
    const wrongCategory = await call('POST', '/api/kb/articles/', {
      title: 'Mine',
      category_id: rivalCategory.id,
    });
    expect(wrongCategory.status).toBe(404);
    expect(wrongCategory.body.result).toEqual({ category_id: ['No category of this business has this id.'] });
    const unknown = await call('GET', '/api/kb/articles/?colour=red');
    expect(unknown.status).toBe(400);
    expect((await call('GET', '/api/kb/articles/')).body.result.count).toBe(before);
  });

  it('finds articles by their words, stemmed in the article’s language, best section first', async () => {
    const refunds = await article({
      title: 'Refunds',
      body_markdown:
        'How money comes back.\n\n## Refunding a gift\n\nGifts are refunded to the giver.\n\n## Card payments\n\nCard refunds take 5 days to appear on your statement.',
      status: 'published',
    });
    const german = await article({
      title: 'Rücksendungen',
      body_markdown:
        'Sie können Artikel innerhalb von 30 Tagen zurückschicken. Die Versandkosten übernehmen wir.',
      locale: 'de',
      status: 'published',
    });

    // "refunding" finds "refunded"/"refunds" (English stemming); the matched section is named.
    const hits = await search('refunding card');
    expect(hits[0]).toMatchObject({ article_id: refunds.id, heading: 'Card payments', status: 'published' });
    expect(hits[0]!.snippet).toContain('«');
    expect(hits[0]!.score).toBeGreaterThan(0);
    // German words with the German configuration ("Versandkosten" and "übernehmen" as typed).
    const de = await search('Versandkosten', '&locale=de');
    expect(de.map((h) => h.article_id)).toEqual([german.id]);
    // Drafts are found by staff.
    const draft = await article({ title: 'Unreleased pricing', body_markdown: 'Secret plans.' });
    expect((await search('unreleased')).map((h) => h.article_id)).toEqual([draft.id]);
  });

  it('never finds another business’s articles, even the same words', async () => {
    await article(
      { title: 'Refunds at Rival', body_markdown: 'Card refunds take 5 days.', status: 'published' },
      rival,
      rivalBusiness,
    );
    const ours = await search('refunds');
    expect(ours.every((h) => !h.title.includes('Rival'))).toBe(true);
    const theirs = await search('refunds', '', rival, rivalBusiness);
    expect(theirs.map((h) => h.title)).toEqual(['Refunds at Rival']);
  });

  it('answers each article once, by its best section, the page filled from the articles the filters keep', async () => {
    // Drafts matching better than the published article (the words in their titles, twice).
    const drafts = [];
    for (const n of [1, 2, 3])
      drafts.push(
        await article({ title: `Umbrella stand ${n}`, body_markdown: 'Umbrella stand, umbrella stand.' }),
      );
    const lobby = await article({
      title: 'Lobby',
      body_markdown:
        'Welcome.\n\n## Coats\n\nLeave an umbrella on the stand by the door.\n\n## Umbrella stand hours\n\nThe umbrella stand is watched all day.',
      status: 'published',
    });

    const staff = await search('umbrella stand');
    const ids = staff.map((h) => h.article_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual([...drafts.map((d) => d.id), lobby.id].sort());
    expect(staff.find((h) => h.article_id === lobby.id)).toMatchObject({ heading: 'Umbrella stand hours' });
    expect(staff.every((h, i) => i === 0 || h.score <= staff[i - 1]!.score)).toBe(true);
    expect((await search('umbrella stand', '&limit=2')).map((h) => h.article_id)).toHaveLength(2);
    // The help centre's page of one: the drafts rank higher but never take its place.
    const code = business.unique_code;
    const page = (
      await call('GET', `/api/public/kb/${code}/search/?q=umbrella%20stand&limit=1`, undefined, null)
    ).body.result.results as TKbSearchHit[];
    expect(page.map((h) => [h.article_id, h.heading])).toEqual([[lobby.id, 'Umbrella stand hours']]);
    expect(page[0]!.snippet).toContain('«umbrella»');
    // A language filter keeps only that language's articles.
    expect(await search('umbrella stand', '&locale=de')).toEqual([]);
  });

  it('lets agents read and search but not write', async () => {
    const agent = await addMember(app, rt.mailer, owner, business, 'agent');
    expect((await call('GET', '/api/kb/articles/', undefined, agent)).status).toBe(200);
    expect((await search('refund', '', agent)).length).toBeGreaterThan(0);
    expect((await call('POST', '/api/kb/articles/', { title: 'Nope' }, agent)).status).toBe(403);
  });
});

describe('the public help centre', () => {
  it('shows published articles only, by business code, without signing in', async () => {
    const code = business.unique_code;
    const front = await call('GET', `/api/public/kb/${code}/`, undefined, null);
    expect(front.status).toBe(200);
    const titles = front.body.result.articles.map((a: { title: string }) => a.title);
    expect(titles).toContain('Refunds');
    expect(titles).not.toContain('Unreleased pricing');
    expect(front.body.result.business).toEqual({ name: 'Knowing', slug: code, color: null });
    expect(front.body.result.locales).toEqual(['de', 'en']);

    const hits = (await call('GET', `/api/public/kb/${code}/search/?q=unreleased%20refunds`, undefined, null))
      .body.result.results as TKbSearchHit[];
    expect(hits.every((h) => h.status === 'published')).toBe(true);
    expect(
      (await call('GET', `/api/public/kb/${code}/search/?q=unreleased`, undefined, null)).body.result.results,
    ).toEqual([]);
  });

  it('serves one article and counts feedback; drafts and strangers get the same 404', async () => {
    const code = business.unique_code;
    const front = (await call('GET', `/api/public/kb/${code}/`, undefined, null)).body.result;
    const refunds = front.articles.find((a: { title: string }) => a.title === 'Refunds');
    const one = await call('GET', `/api/public/kb/${code}/articles/${refunds.id}/`, undefined, null);
    expect(one.status).toBe(200);
    expect(one.body.result.body_markdown).toContain('Card refunds');

    expect(
      (await call('POST', `/api/public/kb/${code}/articles/${refunds.id}/feedback/`, { helpful: true }, null))
        .status,
    ).toBe(204);
    expect(
      (
        await call(
          'POST',
          `/api/public/kb/${code}/articles/${refunds.id}/feedback/`,
          { helpful: false },
          null,
        )
      ).status,
    ).toBe(204);
    const counted = (await call('GET', `/api/kb/articles/${refunds.id}/`)).body.result as TKbArticle;
    expect([counted.helpful_count, counted.not_helpful_count]).toEqual([1, 1]);

    const draft = (await call('GET', '/api/kb/articles/?status=draft')).body.result.results[0] as TKbArticle;
    const hidden = await call('GET', `/api/public/kb/${code}/articles/${draft.id}/`, undefined, null);
    expect(hidden.status).toBe(404);
    const elsewhere = await call(
      'GET',
      `/api/public/kb/${rivalBusiness.unique_code}/articles/${refunds.id}/`,
      undefined,
      null,
    );
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.message).toBe(hidden.body.message);
    expect((await call('GET', '/api/public/kb/NOPE0000/', undefined, null)).status).toBe(404);
    const badFeedback = await call(
      'POST',
      `/api/public/kb/${code}/articles/${refunds.id}/feedback/`,
      { helpful: 'yes' },
      null,
    );
    expect(badFeedback.status).toBe(400);
  });
});
