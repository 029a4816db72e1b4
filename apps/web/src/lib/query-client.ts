// The TanStack Query cache for server state.
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Live lists are kept fresh by the realtime feed; refetching on every focus or mount would
      // only repeat requests.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false },
    },
  });
}
