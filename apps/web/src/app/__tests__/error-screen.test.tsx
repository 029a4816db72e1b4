import { ZRecordAnalyticsEventRequest } from '@titan/contracts';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';

import { ErrorScreen } from '../routes/error-screen';

type TFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
let fetchMock: Mock<TFetch>;

beforeEach(() => {
  fetchMock = vi.fn<TFetch>(
    async () =>
      new Response(JSON.stringify({ status: 201, message: 'Created', result: null }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The error screen as the errorElement of a route that fails, one step after a working page. */
function renderFailingRoute(failure: unknown) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <h1>Previous page</h1> },
      {
        path: '/broken',
        HydrateFallback: () => null,
        loader: () => {
          throw failure;
        },
        element: <h1>Never shown</h1>,
        errorElement: <ErrorScreen />,
      },
    ],
    { initialEntries: ['/', '/broken'], initialIndex: 1 },
  );
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
  return router;
}

function sentEvents(): unknown[] {
  return fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as unknown);
}

describe('error screen', () => {
  it('shows the spec texts and both buttons', async () => {
    renderFailingRoute(new Error('Boom'));

    expect(await screen.findByRole('heading', { name: 'Oops!' })).toBeInTheDocument();
    expect(screen.getByText('Sorry, an unexpected error has occurred.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.queryByText('Never shown')).not.toBeInTheDocument();
  });

  it('Go Back goes one step back in history', async () => {
    const router = renderFailingRoute(new Error('Boom'));
    await userEvent.click(await screen.findByRole('button', { name: 'Go Back' }));

    expect(await screen.findByRole('heading', { name: 'Previous page' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.historyAction).toBe('POP');
  });

  it('Try Again reloads the page', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, href: window.location.href, reload });
    renderFailingRoute(new Error('Boom'));
    await userEvent.click(await screen.findByRole('button', { name: 'Try Again' }));

    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reports exactly one ERROR event with the message, stack and url', async () => {
    const failure = new Error('Boom');
    renderFailingRoute(failure);
    await screen.findByRole('heading', { name: 'Oops!' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    // Let any duplicate report (StrictMode re-runs effects) surface before counting.
    await new Promise((resolve) => setTimeout(resolve, 20));

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/analytics/events/');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
    expect(sentEvents()).toEqual([
      {
        event: 'ERROR',
        properties: { message: 'Boom', stack: failure.stack, url: window.location.href },
      },
    ]);
    expect(ZRecordAnalyticsEventRequest.safeParse(sentEvents()[0]).success).toBe(true);
  });

  it('truncates a long stack to 20000 characters', async () => {
    const failure = new Error('Deep');
    failure.stack = `Error: Deep\n${'    at frame (file.js:1:1)\n'.repeat(2000)}`;
    expect(failure.stack.length).toBeGreaterThan(20_000);
    renderFailingRoute(failure);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));

    const [event] = sentEvents();
    const parsed = ZRecordAnalyticsEventRequest.parse(event);
    expect(parsed.properties.stack).toBe(failure.stack.slice(0, 20_000));
  });

  it('reports a thrown HTTP response with its status', async () => {
    renderFailingRoute(new Response('gone', { status: 404, statusText: 'Not Found' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));

    expect(sentEvents()).toEqual([
      {
        event: 'ERROR',
        properties: { message: '404 Not Found', status: 404, url: window.location.href },
      },
    ]);
  });

  it('swallows a failed report and still shows the screen', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderFailingRoute(new Error('Boom'));

    expect(await screen.findByRole('heading', { name: 'Oops!' })).toBeInTheDocument();
    await waitFor(() =>
      expect(consoleError).toHaveBeenCalledWith('Error report could not be sent', expect.any(TypeError)),
    );
  });
});
