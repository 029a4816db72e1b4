// App-wide providers: server-state cache, theme sync, the single toaster and the blocker modal.
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';

import { BlockerModal } from '../components/blocker-modal';
import { Toaster } from '../components/ui/sonner';
import { registerClientStateReset } from '../lib/client-state';
import { createQueryClient } from '../lib/query-client';
import { useThemeSync } from '../lib/theme';

// Spec section 9 gives two toaster readings; the app uses the first: 3 visible, 4 s each.
const TOAST_VISIBLE_COUNT = 3;
const TOAST_DURATION_MS = 4000;

export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  useThemeSync();
  // Logout resets client state: the query cache is part of it.
  useEffect(() => registerClientStateReset(() => client.clear()), [client]);
  return (
    <QueryClientProvider client={client}>
      {children}
      <Toaster visibleToasts={TOAST_VISIBLE_COUNT} duration={TOAST_DURATION_MS} />
      <BlockerModal />
    </QueryClientProvider>
  );
}
