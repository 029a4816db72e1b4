// POST /api/business/customer-lists/{id}/members/ (add) or …/members/remove/ {customer_ids} → how many
// changed; every lists query is fetched again (the counts move).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZListMembersResult, type TListMembersResult } from '@titan/contracts';

import { CUSTOMER_LISTS_KEY } from '../../../lib/customer-lists';
import { protectedClient } from '../../../lib/protected-client';
import { listApiPath } from './get-list';

export async function changeListMembers(
  id: number,
  change: 'add' | 'remove',
  customerIds: number[],
): Promise<TListMembersResult> {
  const path = change === 'add' ? 'members/' : 'members/remove/';
  const { data } = await protectedClient.post(`${listApiPath(id)}${path}`, { customer_ids: customerIds });
  return ZEnvelope(ZListMembersResult).parse(data).result;
}

export function useChangeMembers(id: number, change: 'add' | 'remove') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (customerIds: number[]) => changeListMembers(id, change, customerIds),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CUSTOMER_LISTS_KEY }),
  });
}
