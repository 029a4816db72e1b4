// The AI answers report (/engage/knowledge/ai-report, GET /api/ai/report/): the figures, handoffs by
// reason in words, answers rated bad linking to their conversations, over whole days of the
// business's zone — the last 30 by default, another range when chosen, none asked for a reversed one.
import type { TAiReport } from '@titan/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok, profile, signIn } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';
import { KNOWLEDGE_STRINGS } from '../strings';

const S = KNOWLEDGE_STRINGS.aiReport;
const SLOW = { timeout: 30_000 };

function report(overrides: Partial<TAiReport> = {}): TAiReport {
  return {
    from: '2026-11-01T00:00:00.000Z',
    to: '2026-11-29T00:00:00.000Z',
    runs: 12,
    answered: 8,
    handed_off: 4,
    handoff_reasons: [
      { reason: 'customer_asked', count: 3 },
      { reason: 'no_sources', count: 1 },
    ],
    rated_good: 3,
    rated_bad: 1,
    good_rate: 0.75,
    tokens: 45210,
    recent_bad: [
      {
        run_id: 'r1',
        conversation_id: 41,
        reason: 'It quoted last year’s shipping price.',
        rated_at: '2026-11-20T10:00:00Z',
      },
    ],
    ...overrides,
  };
}

function withReport(answer: (query: Record<string, string>) => TAiReport = () => report()) {
  const queries: Record<string, string>[] = [];
  signIn();
  server.use(
    http.get('/api/users/profile/', () => ok(profile())),
    http.get('/api/kb/categories/', () => ok([])),
    http.get('/api/kb/articles/', () => ok({ count: 0, next: null, previous: null, results: [] })),
    http.get('/api/ai/report/', ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      queries.push(query);
      return ok(answer(query));
    }),
  );
  return queries;
}

describe('AI answers report', () => {
  it(
    'shows the figures, handoff reasons in words and answers rated bad for the days chosen',
    SLOW,
    async () => {
      const queries = withReport();
      renderApp('/engage/knowledge/ai-report?from=2026-11-01&to=2026-11-28');
      const list = await screen.findByLabelText(S.figuresLabel);
      expect(within(list).getByText(S.answered).nextSibling).toHaveTextContent('8');
      expect(within(list).getByText(S.handedOff).nextSibling).toHaveTextContent('4');
      expect(within(list).getByText(S.goodRate).nextSibling).toHaveTextContent('75% (3 good, 1 bad)');
      expect(within(list).getByText(S.tokens).nextSibling).toHaveTextContent((45210).toLocaleString());
      // The whole days of the business's zone (UTC here), the end exclusive.
      await waitFor(
        () =>
          expect(queries.at(-1)).toEqual({
            from: '2026-11-01T00:00:00.000Z',
            to: '2026-11-29T00:00:00.000Z',
          }),
        { timeout: 10_000 },
      );

      const reasons = screen.getByRole('table', { name: S.reasonsLabel });
      expect(
        within(reasons).getByRole('row', { name: /The customer asked for a person\s*3/ }),
      ).toBeInTheDocument();
      expect(
        within(reasons).getByRole('row', { name: /No article answers the question\s*1/ }),
      ).toBeInTheDocument();

      const bad = screen.getByRole('table', { name: S.badLabel });
      expect(within(bad).getByText('It quoted last year’s shipping price.')).toBeInTheDocument();
      expect(within(bad).getByRole('link', { name: S.openConversation(41) })).toHaveAttribute(
        'href',
        '/messages?conversation=41',
      );

      // Another start: asked again for it; a start after the end asks nothing and says why.
      // A date input takes its value whole (as a picker gives it), not keystroke by keystroke.
      fireEvent.change(screen.getByLabelText(S.from), { target: { value: '2026-11-15' } });
      await waitFor(
        () =>
          expect(queries.at(-1)).toEqual({
            from: '2026-11-15T00:00:00.000Z',
            to: '2026-11-29T00:00:00.000Z',
          }),
        { timeout: 10_000 },
      );
      const asked = queries.length;
      fireEvent.change(screen.getByLabelText(S.to), { target: { value: '2026-11-10' } });
      expect(await screen.findByText(S.badRange)).toBeInTheDocument();
      expect(queries.length).toBe(asked);
    },
  );

  it('asks for the last 30 days by default and says when the AI answered nothing', SLOW, async () => {
    const queries = withReport(() =>
      report({
        runs: 0,
        answered: 0,
        handed_off: 0,
        handoff_reasons: [],
        rated_good: 0,
        rated_bad: 0,
        good_rate: null,
        tokens: 0,
        recent_bad: [],
      }),
    );
    renderApp('/engage/knowledge');
    await userEvent.click(await screen.findByRole('link', { name: KNOWLEDGE_STRINGS.aiReportLink }));
    expect(await screen.findByText(S.emptyTitle)).toBeInTheDocument();
    const { from, to } = queries[0]!;
    expect(Date.parse(to!) - Date.parse(from!)).toBe(30 * 86_400_000);
    expect(Date.parse(to!)).toBeGreaterThan(Date.now());
  });
});
