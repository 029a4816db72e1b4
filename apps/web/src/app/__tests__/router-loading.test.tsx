import { act, render, screen } from '@testing-library/react';
import { http } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { createQueryClient } from '../../lib/query-client';
import { ok, profile, signIn } from '../../test/api';
import { server } from '../../test/server';
import { AppProviders } from '../providers';
import { createRoutes } from '../router';

// Hold two screen modules back until a test releases them, to see what shows meanwhile.
const gates = vi.hoisted(() => {
  const gate = () => {
    let open = (): void => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { open, opened };
  };
  return { dashboard: gate(), notFound: gate() };
});

vi.mock('../../features/dashboard/routes/dashboard-route', async (importOriginal) => {
  await gates.dashboard.opened;
  return importOriginal();
});
vi.mock('../routes/not-found-route', async (importOriginal) => {
  await gates.notFound.opened;
  return importOriginal();
});

function renderAt(path: string) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

beforeEach(() => {
  signIn();
  server.use(http.get('/api/users/profile/', () => ok(profile())));
});

describe('lazy screens', () => {
  it('show the full-screen loading indicator until the first screen has loaded', async () => {
    renderAt('/engage');

    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();

    await act(async () => gates.dashboard.open());

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    // The dashboard's own figures load inside it; once they are in, nothing is loading.
    expect(await screen.findByText('Nothing has happened in these days yet')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it('show the loading indicator while navigating to a screen that is still loading', async () => {
    const router = renderAt('/engage');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();

    act(() => {
      void router.navigate('/missing');
    });

    expect(await screen.findByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Page not found' })).not.toBeInTheDocument();

    await act(async () => gates.notFound.open());

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });
});
