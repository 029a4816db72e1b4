// The knowledge base screens: articles with filters, categories, the editor with its live preview,
// field errors from the contract and the server, delete after confirming, read-only for agents.
import type { TKbArticle, TKbCategory } from '@titan/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

const SLOW = { timeout: 30_000 };

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { KNOWLEDGE_STRINGS as S } from '../strings';

type Body = Record<string, unknown>;

function article(overrides: Partial<TKbArticle> = {}): TKbArticle {
  return {
    id: 5,
    title: 'Where is my parcel?',
    slug: 'where-is-my-parcel',
    body_markdown: '## Tracking\n\nUse the **tracking link**.',
    category_id: 2,
    locale: 'en',
    status: 'published',
    source_url: null,
    helpful_count: 3,
    not_helpful_count: 1,
    created_at: '2026-11-20T10:00:00Z',
    updated_at: '2026-11-21T10:00:00Z',
    published_at: '2026-11-21T10:00:00Z',
    ...overrides,
  };
}
const SHIPPING: TKbCategory = {
  id: 2,
  name: 'Shipping',
  slug: 'shipping',
  description: '',
  position: 0,
  article_count: 1,
};

function withKb(role: 'owner' | 'agent' = 'owner') {
  const state = {
    queries: [] as Record<string, string>[],
    posts: [] as Body[],
    puts: [] as Body[],
    deletes: [] as string[],
  };
  signIn();
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/kb/categories/', () => ok([SHIPPING])),
    http.get('/api/kb/articles/', ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      state.queries.push(query);
      const results = query.status === 'draft' ? [] : [article()];
      const { body_markdown: _body, ...summary } = article();
      return ok({
        count: results.length,
        next: null,
        previous: null,
        results: results.length ? [summary] : [],
      });
    }),
    http.get('/api/kb/articles/:id/', ({ params }) =>
      params.id === '5' ? ok(article()) : fail(404, 'This article does not exist.'),
    ),
    http.post('/api/kb/articles/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.posts.push(body);
      return ok(article({ ...(body as Partial<TKbArticle>), id: 9 }), 201);
    }),
    http.put('/api/kb/articles/:id/', async ({ request }) => {
      const body = (await request.json()) as Body;
      state.puts.push(body);
      return ok(article(body as Partial<TKbArticle>));
    }),
    http.delete('/api/kb/categories/:id/', ({ params }) => {
      state.deletes.push(`category ${String(params.id)}`);
      return new Response(null, { status: 204 });
    }),
    http.delete('/api/kb/articles/:id/', ({ params }) => {
      state.deletes.push(String(params.id));
      return new Response(null, { status: 204 });
    }),
  );
  return state;
}

describe('Knowledge base', () => {
  it('lists articles with their category and status, and filters them', SLOW, async () => {
    const state = withKb();
    renderApp('/engage/knowledge');
    const table = await screen.findByRole('table', { name: S.tableLabel });
    const row = within(table).getByRole('row', { name: /Where is my parcel/ });
    expect(row).toHaveTextContent('Shipping');
    expect(row).toHaveTextContent('Published');
    expect(screen.getByRole('link', { name: S.openHelpCentre })).toHaveAttribute(
      'href',
      `/hc/${ACME.unique_code}`,
    );
    await userEvent.selectOptions(screen.getByLabelText(S.statusFilter), 'draft');
    expect(await screen.findByText(S.noMatchesTitle)).toBeInTheDocument();
    expect(state.queries.at(-1)).toMatchObject({ status: 'draft' });
    expect(
      within(screen.getByRole('list', { name: S.categories.title })).getByText('Shipping'),
    ).toBeInTheDocument();
  });

  it('writes an article with a live preview, checking the title before sending', SLOW, async () => {
    const state = withKb();
    renderApp('/engage/knowledge/articles/new');
    const body = await screen.findByLabelText(S.editor.body);
    await userEvent.type(body, '## Returns{enter}{enter}Within **30 days**.');
    const preview = screen.getByRole('region', { name: S.editor.preview });
    expect(within(preview).getByRole('heading', { name: 'Returns', level: 2 })).toBeInTheDocument();
    expect(within(preview).getByText('30 days').tagName).toBe('STRONG');

    await userEvent.click(screen.getByRole('button', { name: S.editor.save }));
    expect(await screen.findByText('Give the article a title.')).toBeInTheDocument();
    expect(state.posts).toEqual([]);

    await userEvent.type(screen.getByLabelText(S.editor.title), 'Returns');
    await userEvent.selectOptions(screen.getByLabelText(S.editor.category), 'Shipping');
    await userEvent.click(screen.getByRole('button', { name: S.editor.save }));
    expect(await screen.findByText(S.editor.created)).toBeInTheDocument();
    expect(state.posts).toEqual([
      {
        title: 'Returns',
        body_markdown: '## Returns\n\nWithin **30 days**.',
        category_id: 2,
        locale: 'en',
        status: 'draft',
      },
    ]);
  });

  it('puts the server’s field errors on their fields', SLOW, async () => {
    withKb();
    server.use(
      http.put('/api/kb/articles/:id/', () =>
        fail(404, 'No category of this business has this id.', {
          category_id: ['No category of this business has this id.'],
        }),
      ),
    );
    renderApp('/engage/knowledge/articles/5');
    const title = await screen.findByLabelText(S.editor.title);
    await userEvent.type(title, '!');
    await userEvent.click(screen.getByRole('button', { name: S.editor.save }));
    expect(await screen.findByText('No category of this business has this id.')).toBeInTheDocument();
  });

  it('deletes an article after confirming', SLOW, async () => {
    const state = withKb();
    renderApp('/engage/knowledge/articles/5');
    await userEvent.click(await screen.findByRole('button', { name: S.editor.delete }));
    const dialog = await screen.findByRole('alertdialog');
    expect(state.deletes).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: S.editor.delete }));
    await waitFor(() => expect(state.deletes).toEqual(['5']));
    expect(await screen.findByRole('table', { name: S.tableLabel })).toBeInTheDocument();
  });

  it('deletes a category only after confirming that its articles stay', SLOW, async () => {
    const state = withKb();
    renderApp('/engage/knowledge');
    const categories = await screen.findByRole('list', { name: S.categories.title });
    await userEvent.click(within(categories).getByRole('button', { name: 'Delete category Shipping' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete the category “Shipping”?' });
    expect(dialog).toHaveTextContent('Its articles stay in the knowledge base without a category.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(state.deletes).toEqual([]);

    await userEvent.click(within(categories).getByRole('button', { name: 'Delete category Shipping' }));
    dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: S.categories.delete }));
    await waitFor(() => expect(state.deletes).toEqual(['category 2']));
    expect(await screen.findByText(S.categories.deleted)).toBeInTheDocument();
  });

  it('is read-only for agents', SLOW, async () => {
    withKb('agent');
    renderApp('/engage/knowledge/articles/5');
    expect(await screen.findByText(S.editor.readOnly)).toBeInTheDocument();
    expect(screen.getByLabelText(S.editor.title)).toBeDisabled();
    expect(screen.queryByRole('button', { name: S.editor.save })).not.toBeInTheDocument();
  });
});
