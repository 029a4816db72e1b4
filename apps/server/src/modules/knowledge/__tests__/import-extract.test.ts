import { describe, expect, it } from 'vitest';
import { htmlToArticle } from '../import-extract';

const page = (title: string, h1s: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main><article>` +
  h1s.map((h) => `<h1>${h}</h1>`).join('') +
  '<p>We refund damaged umbrellas within 5 working days. Send us a photo of the damage and your order number, and the refund goes back to the card you paid with.</p>' +
  '</article></main></body></html>';

describe('an imported page’s title', () => {
  it('is the page’s one heading when the title only adds the site name after a separator', async () => {
    for (const title of ['Refunds · Umbrella Haven', 'Umbrella Haven: Refunds', 'Refunds | Umbrella Haven'])
      expect((await htmlToArticle(page(title, ['Refunds']), 'x')).title, title).toBe('Refunds');
  });

  it('stays the page’s title when it says more than the heading, or the page has several headings', async () => {
    expect((await htmlToArticle(page('Refunds policy', ['Refunds']), 'x')).title).toBe('Refunds policy');
    expect((await htmlToArticle(page('Help · Umbrella Haven', ['Refunds', 'Help']), 'x')).title).toBe(
      'Help · Umbrella Haven',
    );
  });

  it('is not repeated as the body’s first heading', async () => {
    const { markdown } = await htmlToArticle(page('Refunds · Umbrella Haven', ['Refunds']), 'x');
    expect(markdown.startsWith('We refund damaged umbrellas')).toBe(true);
  });
});
