// GET /api/business/users/join-requests/ → the pending requests to join by business code.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZJoinRequest, type TJoinRequest } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const JOIN_REQUESTS_PATH = '/api/business/users/join-requests/';

export async function getJoinRequests(): Promise<TJoinRequest[]> {
  const { data } = await protectedClient.get(JOIN_REQUESTS_PATH);
  return ZEnvelope(z.array(ZJoinRequest)).parse(data).result;
}

export function joinRequestsQueryOptions() {
  // Shown by the settings section that uses it, with a retry button.
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'join-requests'],
    queryFn: getJoinRequests,
    meta: { errorShownOnScreen: true },
  });
}

export function useJoinRequests() {
  return useQuery(joinRequestsQueryOptions());
}
