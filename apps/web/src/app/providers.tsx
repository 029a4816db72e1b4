// App-wide providers: server-state cache, theme sync and the single toaster.
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';

import { Toaster } from '../components/ui/sonner';
import { createQueryClient } from '../lib/query-client';
import { useThemeSync } from '../lib/theme';

// Spec section 9 gives two toaster readings; the app uses the first: 3 visible, 4 s each.
const TOAST_VISIBLE_COUNT = 3;
const TOAST_DURATION_MS = 4000;

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  useThemeSync();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster visibleToasts={TOAST_VISIBLE_COUNT} duration={TOAST_DURATION_MS} />
    </QueryClientProvider>
  );
}
