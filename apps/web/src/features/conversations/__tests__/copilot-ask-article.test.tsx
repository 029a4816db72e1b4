// Two copilot tools beside a conversation (issue 33): "Turn into an article" under a staff reply
// creates a draft article and links to it (the server's notice shown when no model wrote it; only
// for members who write the knowledge base), and the side panel's Ask box answers a staff question
// with its sources — or, without a model, says so and lists the matching articles.
import type { TAiArticleDraft, TAiAskAnswer, TKbArticle } from '@titan/contracts';
import { AI_ERRORS } from '@titan/contracts';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ACME, fail, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { CONVERSATIONS_STRINGS } from '../strings';
import { conversation, message, page } from './fixtures';

configure({ asyncUtilTimeout: 20_000 });
const SLOW = { timeout: 60_000 };
const A = CONVERSATIONS_STRINGS.replyToArticle;
const Q = CONVERSATIONS_STRINGS.ask;
const ROW = conversation({ id: 1 });
const QUESTION = message({ id: 7, content: 'Can I return a damaged umbrella?' });
const REPLY = message({
  id: 8,
  content: 'Yes: send us a photo and we refund within five working days.',
  sender_id: 1,
  sender_type: 'staff',
  sender: { id: 1, name: 'Sam Staff', email: 'sam@example.com', role: 'staff', avatar_url: null },
});

const ARTICLE: TKbArticle = {
  id: 31,
  title: 'Can I return a damaged umbrella?',
  slug: 'can-i-return-a-damaged-umbrella',
  body_markdown: 'Yes: send us a photo and we refund within five working days.',
  category_id: null,
  locale: 'en',
  status: 'draft',
  source_url: null,
  helpful_count: 0,
  not_helpful_count: 0,
  created_at: '2026-11-28T10:00:00Z',
  updated_at: '2026-11-28T10:00:00Z',
  published_at: null,
};
const SOURCE = { article_id: 4, title: 'Refunds', url: 'http://localhost/hc/acme/articles/4-refunds' };

function inbox(role: 'owner' | 'agent' = 'owner') {
  signIn();
  const calls = { drafts: [] as unknown[], asks: [] as unknown[] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile({ businesses: [{ ...ACME, role }] }))),
    http.get('/api/business/users/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/conversations/', () => ok(page([ROW]))),
    http.get('/api/msg/conversations/counts/', () =>
      ok({ all: 1, mine: 0, unassigned: 1, assignees: [], groups: [], labels: [] }),
    ),
    http.get('/api/msg/conversations/:id/', () => ok(ROW)),
    http.get('/api/business/customer-directory/11/', () => fail(404, 'This customer does not exist.')),
    http.get('/api/msg/conversations/:id/messages/', () => ok([QUESTION, REPLY])),
    http.get('/api/kb/articles/31/', () => ok(ARTICLE)),
    http.get('/api/kb/categories/', () => ok([])),
  );
  fakeRealtime();
  return calls;
}

function answersDraft(calls: { drafts: unknown[] }, draft: TAiArticleDraft) {
  server.use(
    http.post('/api/ai/article-drafts/', async ({ request }) => {
      calls.drafts.push(await request.json());
      return ok(draft, 201);
    }),
  );
}

function answersAsk(calls: { asks: unknown[] }, answer: TAiAskAnswer) {
  server.use(
    http.post('/api/ai/ask/', async ({ request }) => {
      calls.asks.push(await request.json());
      return ok(answer);
    }),
  );
}

describe('Turn a reply into an article', () => {
  it('drafts an article from a staff reply and links to the draft', SLOW, async () => {
    const calls = inbox();
    answersDraft(calls, { article: ARTICLE, written_by_model: true, notice: null, run_id: 'r1' });
    renderApp('/messages?conversation=1');
    const reply = (await screen.findByText(REPLY.content)).closest('li')!;
    // Only under the staff reply, not the customer's message.
    expect(
      within(screen.getByText(QUESTION.content).closest('li')!).queryByRole('button', { name: A.action }),
    ).toBeNull();
    await userEvent.click(within(reply).getByRole('button', { name: A.action }));
    const done = await within(reply).findByRole('status');
    expect(done).toHaveTextContent(A.created);
    expect(calls.drafts).toEqual([{ conversation_id: 1, message_id: 8 }]);
    const link = within(done).getByRole('link', { name: A.open(ARTICLE.title) });
    expect(link).toHaveAttribute('href', '/engage/knowledge/articles/31');
    await userEvent.click(link);
    expect(await screen.findByDisplayValue(ARTICLE.title)).toBeInTheDocument();
  });

  it('says plainly when no model wrote the draft', SLOW, async () => {
    const calls = inbox();
    answersDraft(calls, {
      article: ARTICLE,
      written_by_model: false,
      notice: AI_ERRORS.noModelDraft,
      run_id: null,
    });
    renderApp('/messages?conversation=1');
    const reply = (await screen.findByText(REPLY.content)).closest('li')!;
    await userEvent.click(within(reply).getByRole('button', { name: A.action }));
    expect(await within(reply).findByText(AI_ERRORS.noModelDraft)).toBeInTheDocument();
  });

  it('is not offered to a member who cannot write the knowledge base', SLOW, async () => {
    inbox('agent');
    renderApp('/messages?conversation=1');
    await screen.findByText(REPLY.content);
    expect(screen.queryByRole('button', { name: A.action })).toBeNull();
  });
});

describe('Copilot Ask box', () => {
  it('answers a staff question in the side panel with its sources', SLOW, async () => {
    const calls = inbox();
    answersAsk(calls, {
      answer: 'Damaged umbrellas are refunded within five working days.',
      sources: [SOURCE],
      notice: null,
      run_id: 'r2',
    });
    renderApp('/messages?conversation=1');
    await screen.findByText(REPLY.content);
    await userEvent.click(screen.getByRole('button', { name: 'Customer details' }));
    const box = await screen.findByRole('region', { name: Q.title });
    await userEvent.type(within(box).getByLabelText(Q.label), 'How fast are refunds?');
    await userEvent.click(within(box).getByRole('button', { name: Q.submit }));
    const answer = await within(box).findByRole('region', { name: Q.answerLabel });
    expect(answer).toHaveTextContent('Damaged umbrellas are refunded within five working days.');
    expect(within(answer).getByRole('link', { name: 'Refunds' })).toHaveAttribute('href', SOURCE.url);
    expect(calls.asks).toEqual([{ conversation_id: 1, question: 'How fast are refunds?' }]);
  });

  it('without a model, says so and lists the matching articles', SLOW, async () => {
    const calls = inbox();
    answersAsk(calls, { answer: null, sources: [SOURCE], notice: AI_ERRORS.noModelAsk, run_id: null });
    renderApp('/messages?conversation=1');
    await screen.findByText(REPLY.content);
    await userEvent.click(screen.getByRole('button', { name: 'Customer details' }));
    const box = await screen.findByRole('region', { name: Q.title });
    expect(within(box).getByRole('button', { name: Q.submit })).toBeDisabled();
    await userEvent.type(within(box).getByLabelText(Q.label), 'Refund time?');
    await userEvent.click(within(box).getByRole('button', { name: Q.submit }));
    const answer = await within(box).findByRole('region', { name: Q.answerLabel });
    expect(answer).toHaveTextContent(AI_ERRORS.noModelAsk);
    expect(within(answer).getByRole('link', { name: 'Refunds' })).toBeInTheDocument();
  });
});
