// GET /api/business/users/ → the business's members and their roles.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZMember, type TMember } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const MEMBERS_PATH = '/api/business/users/';

export async function getMembers(): Promise<TMember[]> {
  const { data } = await protectedClient.get(MEMBERS_PATH);
  return ZEnvelope(z.array(ZMember)).parse(data).result;
}

export function membersQueryOptions() {
  // Shown by the settings section that uses it, with a retry button.
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'members'],
    queryFn: getMembers,
    meta: { errorShownOnScreen: true },
  });
}

export function useMembers() {
  return useQuery(membersQueryOptions());
}
