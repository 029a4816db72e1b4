// The copilot in the composer: "Suggest a reply" puts the draft into the message box (nothing is
// sent until staff send it) and lists its sources; "Summarize" shows the summary; no AI model set
// up is said in the server's words.
import type { TAiCopilotAnswer } from '@titan/contracts';
import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail, ok, profile, signIn } from '../../../test/api';
import { fakeRealtime } from '../../../test/realtime';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { CONVERSATIONS_STRINGS } from '../strings';
import { conversation, page } from './fixtures';

configure({ asyncUtilTimeout: 5000 });
const S = CONVERSATIONS_STRINGS.copilot;
const SLOW = { timeout: 30_000 };
const ROW = conversation({ id: 1 });

const SUGGESTION: TAiCopilotAnswer = {
  content: 'We refund damaged umbrellas within five working days.',
  sources: [{ article_id: 4, title: 'Refunds', url: 'http://localhost/hc/acme/articles/4-refunds' }],
  run_id: '6a1f0e1c-1111-4222-8333-444455556666',
};

function inbox() {
  signIn();
  const calls = { asked: [] as unknown[], sent: [] as unknown[] };
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/business/users/', () => ok([])),
    http.get('/api/msg/chat-groups/', () => ok([])),
    http.get('/api/msg/labels/', () => ok([])),
    http.get('/api/msg/canned-responses/', () => ok([])),
    http.get('/api/msg/conversations/', () => ok(page([ROW]))),
    http.get('/api/msg/conversations/counts/', () =>
      ok({ all: 1, mine: 0, unassigned: 1, assignees: [], groups: [{ id: null, count: 1 }] }),
    ),
    http.get('/api/msg/conversations/:id/', () => ok(ROW)),
    http.get('/api/msg/conversations/:id/messages/', () => ok([])),
    http.post('/api/msg/conversations/:id/messages/', async ({ request }) => {
      calls.sent.push(await request.json());
      return ok({}, 201);
    }),
    http.post('/api/ai/suggest-reply/', async ({ request }) => {
      calls.asked.push(await request.json());
      return ok(SUGGESTION);
    }),
    http.post('/api/ai/summarize/', () =>
      ok({ content: '- Wants a refund for a damaged umbrella.', sources: [], run_id: SUGGESTION.run_id }),
    ),
  );
  fakeRealtime();
  return calls;
}

describe('Copilot', () => {
  it('puts a suggested reply in the message box with its sources, sending nothing', SLOW, async () => {
    const calls = inbox();
    renderApp('/messages?conversation=1');
    await userEvent.click(await screen.findByRole('button', { name: S.suggest }));
    expect(await screen.findByDisplayValue(SUGGESTION.content)).toBeInTheDocument();
    expect(calls.asked).toEqual([{ conversation_id: 1 }]);
    expect(screen.getByRole('link', { name: 'Refunds' })).toHaveAttribute('href', SUGGESTION.sources[0]!.url);
    expect(calls.sent).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: S.summarize }));
    const summary = await screen.findByRole('region', { name: S.summaryLabel });
    expect(within(summary).getByText('- Wants a refund for a damaged umbrella.')).toBeInTheDocument();
    await userEvent.click(within(summary).getByRole('button', { name: S.closeSummary }));
    expect(screen.queryByRole('region', { name: S.summaryLabel })).not.toBeInTheDocument();
  });

  it('says why when no AI model is set up', SLOW, async () => {
    inbox();
    server.use(
      http.post('/api/ai/suggest-reply/', () => fail(409, 'No AI model is set up for this business.')),
    );
    renderApp('/messages?conversation=1');
    await userEvent.click(await screen.findByRole('button', { name: S.suggest }));
    expect(await screen.findByText('No AI model is set up for this business.')).toBeInTheDocument();
  });
});
