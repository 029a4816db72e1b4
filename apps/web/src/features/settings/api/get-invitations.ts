// GET /api/business/users/invitations/ → the invitations still open.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZInvitation, type TInvitation } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const INVITATIONS_PATH = '/api/business/users/invitations/';

export async function getInvitations(): Promise<TInvitation[]> {
  const { data } = await protectedClient.get(INVITATIONS_PATH);
  return ZEnvelope(z.array(ZInvitation)).parse(data).result;
}

export function invitationsQueryOptions() {
  // Shown by the settings section that uses it, with a retry button.
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'invitations'],
    queryFn: getInvitations,
    meta: { errorShownOnScreen: true },
  });
}

export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}
