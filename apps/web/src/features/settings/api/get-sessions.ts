// GET /api/auth/sessions/ → the signed-in user's sessions (this one marked).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZSession, type TSession } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';

export const SESSIONS_PATH = '/api/auth/sessions/';

export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: ['security', 'sessions'],
    queryFn: async (): Promise<TSession[]> =>
      ZEnvelope(z.array(ZSession)).parse((await protectedClient.get(SESSIONS_PATH)).data).result,
    meta: { errorShownOnScreen: true },
  });
}

export const useSessions = () => useQuery(sessionsQueryOptions());
