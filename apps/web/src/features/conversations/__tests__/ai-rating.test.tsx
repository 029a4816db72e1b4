// Staff rating the AI first responder's answer under its message: thumbs up saves "good" at once;
// thumbs down asks what was wrong and saves "bad" with it; the rating shows with its reason and can
// be taken back. A copilot run (not the responder's) offers no rating.
import type { TAiRun, TMessage } from '@titan/contracts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { ok, signIn } from '../../../test/api';
import { AppProviders } from '../../../test/render-app';
import { server } from '../../../test/server';
import { MessageItem } from '../components/message-item';
import { CONVERSATIONS_STRINGS } from '../strings';
import { message } from './fixtures';

const S = CONVERSATIONS_STRINGS.aiRating;
const RUN_ID = '6a1f0e1c-1111-4222-8333-444455556666';

const run = (overrides: Partial<TAiRun> = {}): TAiRun => ({
  id: RUN_ID,
  kind: 'responder',
  status: 'answered',
  conversation_id: 1,
  outcome: null,
  steps: [],
  prompt_tokens: 10,
  completion_tokens: 5,
  rating: null,
  rating_reason: null,
  rated_by: null,
  rated_at: null,
  attempts: 1,
  created_at: '2026-11-28T10:00:00Z',
  finished_at: '2026-11-28T10:00:02Z',
  ...overrides,
});

function showAnswer(initial: TAiRun, overrides: Partial<TMessage> = {}) {
  signIn();
  const puts: unknown[] = [];
  let current = initial;
  server.use(
    http.get(`/api/ai/runs/${RUN_ID}/`, () => ok(current)),
    http.put(`/api/ai/runs/${RUN_ID}/rating/`, async ({ request }) => {
      const body = (await request.json()) as { rating: TAiRun['rating']; reason?: string };
      puts.push(body);
      current = run({
        rating: body.rating,
        rating_reason: body.rating ? body.reason || null : null,
        rated_at: body.rating ? '2026-11-28T10:05:00Z' : null,
      });
      return ok(current);
    }),
  );
  render(
    <AppProviders>
      <ol>
        <MessageItem
          message={message({
            sender_type: 'agent',
            sender: null,
            sender_id: null,
            content: 'We refund damaged umbrellas within 5 working days.',
            meta_data: { run_id: RUN_ID, sources: [] },
            ...overrides,
          })}
          conversation={{ initiator: { id: 11, name: 'Grace Hopper', email: null } }}
        />
      </ol>
    </AppProviders>,
  );
  return puts;
}

describe('rating an AI answer', () => {
  it('thumbs down asks what was wrong and saves it; the rating shows and can be taken back', async () => {
    const user = userEvent.setup();
    const puts = showAnswer(run());
    const group = await screen.findByRole('group', { name: S.label });
    await user.click(within(group).getByRole('button', { name: S.bad }));
    await user.type(screen.getByLabelText(S.reason), 'It should ask for a photo first.');
    await user.click(screen.getByRole('button', { name: S.save }));
    expect(await screen.findByText(`${S.ratedBad}: It should ask for a photo first.`)).toBeInTheDocument();
    expect(puts).toEqual([{ rating: 'bad', reason: 'It should ask for a photo first.' }]);
    await user.click(screen.getByRole('button', { name: S.undo }));
    expect(await screen.findByRole('button', { name: S.good })).toBeInTheDocument();
    expect(puts.at(-1)).toEqual({ rating: null });
    cleanup();
  });

  it('thumbs up saves "good" at once', async () => {
    const user = userEvent.setup();
    const puts = showAnswer(run());
    await user.click(await screen.findByRole('button', { name: S.good }));
    expect(await screen.findByText(S.ratedGood)).toBeInTheDocument();
    expect(puts).toEqual([{ rating: 'good' }]);
    cleanup();
  });

  it('offers no rating on a copilot run', async () => {
    showAnswer(run({ kind: 'summarize', status: 'done' }));
    expect(await screen.findByText('We refund damaged umbrellas within 5 working days.')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.queryByRole('group', { name: S.label })).toBeNull();
    cleanup();
  });
});
