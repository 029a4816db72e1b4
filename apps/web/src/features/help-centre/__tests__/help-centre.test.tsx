// The public help centre: categories and articles of a business, search with marked matches, one
// article rendered from Markdown with "was this helpful?", and a clear page for a wrong link.
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

const SLOW = { timeout: 30_000 };

import { fail, ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { HELP_CENTRE_STRINGS as S } from '../strings';

function withCentre() {
  const feedback: unknown[] = [];
  server.use(
    http.get('/api/public/kb/ACME1234/', () =>
      ok({
        business: { name: 'Acme', slug: 'ACME1234', color: null },
        locales: ['en'],
        categories: [
          {
            id: 2,
            name: 'Shipping',
            slug: 'shipping',
            description: 'Parcels',
            position: 0,
            article_count: 1,
          },
        ],
        articles: [
          {
            id: 5,
            title: 'Where is my parcel?',
            slug: 'where-is-my-parcel',
            category_id: 2,
            locale: 'en',
            updated_at: '2026-11-21T10:00:00Z',
          },
          {
            id: 6,
            title: 'Opening hours',
            slug: 'opening-hours',
            category_id: null,
            locale: 'en',
            updated_at: '2026-11-21T10:00:00Z',
          },
        ],
      }),
    ),
    http.get('/api/public/kb/ACME1234/search/', () =>
      ok({
        results: [
          {
            article_id: 5,
            title: 'Where is my parcel?',
            slug: 'where-is-my-parcel',
            locale: 'en',
            heading: 'Tracking',
            snippet: 'Use the «tracking» link <b>now</b>',
            score: 0.4,
            status: 'published',
          },
        ],
      }),
    ),
    http.get('/api/public/kb/ACME1234/articles/5/', () =>
      ok({
        id: 5,
        title: 'Where is my parcel?',
        slug: 'where-is-my-parcel',
        body_markdown: '## Tracking\n\nUse the link.\n\n<script>window.hacked = true</script>',
        category_id: 2,
        locale: 'en',
        updated_at: '2026-11-21T10:00:00Z',
      }),
    ),
    http.post('/api/public/kb/ACME1234/articles/5/feedback/', async ({ request }) => {
      feedback.push(await request.json());
      return new Response(null, { status: 204 });
    }),
    http.get('/api/public/kb/NOPE/', () => fail(404, 'This help centre does not exist.')),
  );
  return feedback;
}

describe('Help centre', () => {
  it('shows the articles by category, and searches with the matches marked (as text)', SLOW, async () => {
    withCentre();
    renderApp('/hc/ACME1234');
    expect(await screen.findByRole('heading', { name: 'Acme help centre', level: 1 })).toBeInTheDocument();
    const shipping = screen.getByRole('region', { name: 'Shipping' });
    expect(within(shipping).getByRole('link', { name: 'Where is my parcel?' })).toHaveAttribute(
      'href',
      '/hc/ACME1234/articles/5-where-is-my-parcel',
    );
    expect(
      within(screen.getByRole('region', { name: S.other })).getByText('Opening hours'),
    ).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText(S.searchLabel), 'tracking{enter}');
    expect(await screen.findByText(S.results(1))).toBeInTheDocument();
    expect(screen.getByText('tracking', { selector: 'mark' })).toBeInTheDocument();
    expect(screen.getByText(/<b>now<\/b>/)).toBeInTheDocument();
  });

  it('renders an article safely and takes feedback once', SLOW, async () => {
    const feedback = withCentre();
    renderApp('/hc/ACME1234/articles/5-where-is-my-parcel');
    expect(await screen.findByRole('heading', { name: 'Where is my parcel?', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Tracking', level: 2 })).toBeInTheDocument();
    expect(document.querySelector('article script')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: S.yes }));
    expect(await screen.findByText(S.thanks)).toBeInTheDocument();
    expect(feedback).toEqual([{ helpful: true }]);
  });

  it('says so when the help centre does not exist', SLOW, async () => {
    withCentre();
    renderApp('/hc/NOPE');
    expect(await screen.findByRole('heading', { name: S.notFoundTitle })).toBeInTheDocument();
  });
});
