// GET /api/business/users/ → the business's members and their roles (Team settings, chat group staff).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZMember, type TMember } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../protected-client';
import { BUSINESS_SCOPE } from '../query-client';

export const MEMBERS_PATH = '/api/business/users/';

export async function getMembers(): Promise<TMember[]> {
  const { data } = await protectedClient.get(MEMBERS_PATH);
  return ZEnvelope(z.array(ZMember)).parse(data).result;
}

export function membersQueryOptions() {
  // Every screen that lists members shows a failure itself, with a retry button.
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'members'],
    queryFn: getMembers,
    meta: { errorShownOnScreen: true },
  });
}

export function useMembers() {
  return useQuery(membersQueryOptions());
}
