// The TanStack Query cache for server state. A failed query with no handler is logged to the console;
// a query opts into a toast with `meta.errorToast` (spec section 8: no global toast for every error).
import { QueryCache, QueryClient } from '@tanstack/react-query';

import { describeApiFailure, reportApiError } from './api-errors';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** true: the server's message (or a generic one) as a toast; a string: that fallback message. */
      errorToast?: boolean | string;
      /** The screen shows this query's failure itself: nothing more to report. */
      errorShownOnScreen?: boolean;
    };
  }
}

/** First element of every query key answered for the current business (X-Business-Code): entering
 * another business drops exactly these, and the profile. */
export const BUSINESS_SCOPE = 'business';

const MAX_RETRIES = 1;

/** Only failures that may pass on their own are retried: no answer, a timeout, a 5xx. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  const failure = describeApiFailure(error);
  return failure.kind === 'network' || (failure.kind === 'response' && failure.status >= 500);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.errorShownOnScreen) return;
        reportApiError(error, { toast: query.meta?.errorToast ?? false });
      },
    }),
    defaultOptions: {
      // Live lists are kept fresh by the realtime feed; refetching on every focus or mount would
      // only repeat requests.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: shouldRetry },
      mutations: { retry: false },
    },
  });
}
