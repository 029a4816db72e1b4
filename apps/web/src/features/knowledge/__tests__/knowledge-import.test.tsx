// The knowledge-base import screen: pages sent as a list of addresses, the job's progress followed
// until it ends with each page's outcome (the failed one with its reason, the imported ones linked
// to their articles), files sent as multipart, the server's field errors on their fields, and no
// form for agents.
import type { TKbImport, TKbCategory } from '@titan/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { KNOWLEDGE_STRINGS } from '../strings';

const S = KNOWLEDGE_STRINGS.imports;
const SLOW = { timeout: 30_000 };
const SHIPPING: TKbCategory = {
  id: 2,
  name: 'Shipping',
  slug: 'shipping',
  description: '',
  position: 0,
  article_count: 1,
};

function anImport(overrides: Partial<TKbImport> = {}): TKbImport {
  return {
    id: 7,
    status: 'queued',
    sitemap_url: null,
    locale: 'en',
    category_id: 2,
    article_status: 'published',
    total: 2,
    processed: 0,
    imported: 0,
    failed: 0,
    error: null,
    items: [
      {
        id: 1,
        kind: 'url',
        source: 'https://help.example/shipping',
        status: 'pending',
        article_id: null,
        title: null,
        error: null,
      },
      {
        id: 2,
        kind: 'url',
        source: 'https://help.example/gone',
        status: 'pending',
        article_id: null,
        title: null,
        error: null,
      },
    ],
    created_at: '2026-11-28T10:00:00Z',
    finished_at: null,
    ...overrides,
  };
}

const DONE = anImport({
  status: 'done',
  processed: 2,
  imported: 1,
  failed: 1,
  finished_at: '2026-11-28T10:00:05Z',
  items: [
    {
      id: 1,
      kind: 'url',
      source: 'https://help.example/shipping',
      status: 'imported',
      article_id: 41,
      title: 'Shipping',
      error: null,
    },
    {
      id: 2,
      kind: 'url',
      source: 'https://help.example/gone',
      status: 'failed',
      article_id: null,
      title: null,
      error: 'The address answered HTTP 404.',
    },
  ],
});

function withImports(role: 'owner' | 'agent' = 'owner') {
  const state = { posts: [] as unknown[], forms: [] as FormData[], polls: 0 };
  signIn();
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/kb/categories/', () => ok([SHIPPING])),
    http.get('/api/kb/imports/', () => ok({ results: [] })),
    http.post('/api/kb/imports/', async ({ request }) => {
      if ((request.headers.get('content-type') ?? '').startsWith('multipart/form-data'))
        state.forms.push(await request.formData());
      else state.posts.push(await request.json());
      return ok(anImport(), 202);
    }),
    http.get('/api/kb/imports/:id/', () => {
      state.polls++;
      // Running on the first look, done on the next.
      return ok(state.polls < 2 ? anImport({ status: 'running', processed: 1 }) : DONE);
    }),
  );
  return state;
}

describe('Knowledge import', () => {
  it('imports pages and follows the job to each page’s outcome', SLOW, async () => {
    const state = withImports();
    renderApp('/engage/knowledge/import');
    const form = await screen.findByRole('form', { name: S.formLabel });
    await userEvent.type(
      within(form).getByLabelText(S.urls),
      'https://help.example/shipping{enter}https://help.example/gone',
    );
    await userEvent.selectOptions(within(form).getByLabelText(KNOWLEDGE_STRINGS.editor.status), 'published');
    await userEvent.selectOptions(within(form).getByLabelText(KNOWLEDGE_STRINGS.editor.category), 'Shipping');
    await userEvent.click(within(form).getByRole('button', { name: S.start }));
    const progress = await screen
      .findByRole('region', { name: S.progressLabel })
      .catch(() => screen.findByLabelText(S.progressLabel));
    expect(state.posts).toEqual([
      {
        urls: ['https://help.example/shipping', 'https://help.example/gone'],
        locale: 'en',
        status: 'published',
        category_id: 2,
      },
    ]);
    expect(await within(progress).findByText(S.statusLine.done, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(within(progress).getByText(S.counts(2, 2, 1, 1))).toBeInTheDocument();
    const items = within(progress).getByRole('table', { name: S.itemsLabel });
    const failed = within(items).getByRole('row', { name: /help\.example\/gone/ });
    expect(failed).toHaveTextContent(S.itemStatus.failed);
    expect(failed).toHaveTextContent('The address answered HTTP 404.');
    const imported = within(items).getByRole('row', { name: /help\.example\/shipping/ });
    expect(within(imported).getByRole('link', { name: 'Shipping' })).toHaveAttribute(
      'href',
      '/engage/knowledge/articles/41',
    );
  });

  it('sends files as multipart', SLOW, async () => {
    const state = withImports();
    renderApp('/engage/knowledge/import');
    const form = await screen.findByRole('form', { name: S.formLabel });
    await userEvent.click(within(form).getByLabelText(S.sources.files));
    const md = new File(['# Gift cards\n\nThey never expire.'], 'gift-cards.md', { type: 'text/markdown' });
    const pdf = new File(['%PDF-1.4'], 'warranty.pdf', { type: 'application/pdf' });
    await userEvent.upload(within(form).getByLabelText(S.files), [md, pdf]);
    await userEvent.click(within(form).getByRole('button', { name: S.start }));
    await screen.findByLabelText(S.progressLabel);
    expect(state.forms).toHaveLength(1);
    const sent = state.forms[0]!;
    expect(sent.get('locale')).toBe('en');
    expect(sent.get('status')).toBe('draft');
    // (jsdom's File loses its name on the way into Node's fetch: the contents say which is which.)
    expect(await Promise.all((sent.getAll('files') as File[]).map((f) => f.text()))).toEqual([
      '# Gift cards\n\nThey never expire.',
      '%PDF-1.4',
    ]);
  });

  it('puts the server’s field errors on their fields', SLOW, async () => {
    withImports();
    server.use(
      http.post('/api/kb/imports/', () =>
        fail(400, 'Invalid input.', { urls: ['Enter a full web address starting with https://.'] }),
      ),
    );
    renderApp('/engage/knowledge/import');
    const form = await screen.findByRole('form', { name: S.formLabel });
    await userEvent.type(within(form).getByLabelText(S.urls), 'help.example');
    await userEvent.click(within(form).getByRole('button', { name: S.start }));
    expect(
      await within(form).findByText('Enter a full web address starting with https://.'),
    ).toBeInTheDocument();
    expect(within(form).getByLabelText(S.urls)).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows agents no import form', SLOW, async () => {
    withImports('agent');
    renderApp('/engage/knowledge/import');
    expect(await screen.findByText(KNOWLEDGE_STRINGS.editor.readOnly)).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: S.formLabel })).not.toBeInTheDocument();
  });
});
