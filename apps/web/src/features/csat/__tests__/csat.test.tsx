// The public rating page of a resolved conversation's survey (issue 29): five stars and a comment,
// sent by the token; thanks and a way to change it; a link whose survey is gone says so.
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';

import { fail, ok } from '../../../test/api';
import { renderApp } from '../../../test/render-app';
import { server } from '../../../test/server';

const TOKEN = 'tok-abcdefghijklmnop';

function withApi() {
  let survey = {
    business: 'Acme Shoes',
    rating: null as number | null,
    comment: null as string | null,
    answered_at: null,
  };
  const posts: unknown[] = [];
  server.use(
    http.get('/api/public/csat/:token/', ({ params }) =>
      params.token === TOKEN ? ok(survey) : fail(404, 'Not found.'),
    ),
    http.post('/api/public/csat/:token/', async ({ request }) => {
      const body = (await request.json()) as { rating: number; comment?: string };
      posts.push(body);
      survey = { ...survey, rating: body.rating, comment: body.comment ?? null };
      return ok(survey);
    }),
  );
  return posts;
}

describe('the rating page', () => {
  it('takes a rating and a comment, thanks, and lets the customer change it', async () => {
    const posts = withApi();
    renderApp(`/csat/${TOKEN}`);
    expect(
      await screen.findByRole('heading', { name: 'How would you rate this conversation?' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Your answer goes to Acme Shoes.')).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Send rating' });
    expect(send).toBeDisabled();
    await userEvent.click(screen.getByRole('radio', { name: '4 stars out of 5' }));
    await userEvent.type(screen.getByLabelText('Anything you want to add? (optional)'), 'Quick answer');
    await userEvent.click(send);
    expect(await screen.findByRole('heading', { name: 'Thank you!' })).toBeInTheDocument();
    expect(screen.getByText('Acme Shoes received your rating of 4 out of 5.')).toBeInTheDocument();
    expect(posts).toEqual([{ rating: 4, comment: 'Quick answer' }]);
    await userEvent.click(screen.getByRole('button', { name: 'Change my rating' }));
    await userEvent.click(screen.getByRole('radio', { name: '5 stars out of 5' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    expect(await screen.findByText('Acme Shoes received your rating of 5 out of 5.')).toBeInTheDocument();
  });

  it('says when the link does not work', async () => {
    withApi();
    renderApp('/csat/tok-unknown-000000000');
    expect(await screen.findByRole('heading', { name: 'This link does not work' })).toBeInTheDocument();
  });
});
