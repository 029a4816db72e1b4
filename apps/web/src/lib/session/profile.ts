// GET /api/users/profile/: the signed-in user and the businesses they belong to. Shared by the route
// guard, the /engage shell and every feature that needs the current membership.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZMembershipSummary, ZUser } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../protected-client';

// The contracts have no profile schema yet: composed from the two they export (reported upstream).
export const ZProfile = ZUser.extend({ businesses: z.array(ZMembershipSummary) });
export type TProfile = z.infer<typeof ZProfile>;

export const PROFILE_PATH = '/api/users/profile/';

export async function getProfile(): Promise<TProfile> {
  const { data } = await protectedClient.get(PROFILE_PATH);
  return ZEnvelope(ZProfile).parse(data).result;
}

export function profileQueryOptions() {
  return queryOptions({ queryKey: ['profile'], queryFn: getProfile });
}

export function useProfile() {
  return useQuery(profileQueryOptions());
}
