import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { routes } from '../router';

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

describe('lazy screens', () => {
  it('show the full-screen loading indicator until the first screen has loaded', async () => {
    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/engage'] })} />);

    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();

    await act(async () => gates.dashboard.open());

    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
  });

  it('show the loading indicator while navigating to a screen that is still loading', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/engage'] });
    render(<RouterProvider router={router} />);
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
