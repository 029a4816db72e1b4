// Renders the real route table in a memory router with the app's providers and a fresh query cache.
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';

import { AppProviders } from '../app/providers';
import { createRoutes } from '../app/router';
import { createQueryClient } from '../lib/query-client';

/** Tests of shared code and features reach the app's providers through this harness, never app/. */
export { AppProviders };

export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** Replaces window.location with a copy whose assign() is a spy (jsdom cannot navigate). */
export function stubLocationAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, href: window.location.href, assign });
  return assign;
}
