// GET /api/business/users/ → the business's members, their roles and presence (Team settings, chat
// group staff, the inbox's assign menus), kept live by the `presence` topic.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZMember, ZPresence, type TMember } from '@titan/contracts';
import { useEffect } from 'react';
import { z } from 'zod';

import { realtimeClient } from '../realtime';
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

/**
 * Keeps the members' presence live (next-api.md "Team inbox": the `presence` topic): each change
 * updates that member in the members query; a resync refetches it. Mounted by the screens that show
 * presence (the inbox, Team settings).
 */
export function useLivePresence(businessCode: string | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!businessCode) return;
    const { queryKey } = membersQueryOptions();
    return realtimeClient().subscribe(
      { topic: 'presence', business_code: businessCode },
      {
        onChange: (change) => {
          if (change.table !== 'user_presence') return;
          const parsed = ZPresence.safeParse(change.new);
          if (!parsed.success) return;
          const { user_id, status } = parsed.data;
          queryClient.setQueryData<TMember[]>(queryKey, (members) =>
            members?.map((m) => (m.user.pk === user_id ? { ...m, presence: status } : m)),
          );
        },
        onResync: () => void queryClient.invalidateQueries({ queryKey, exact: true }),
      },
    );
  }, [businessCode, queryClient]);
}
