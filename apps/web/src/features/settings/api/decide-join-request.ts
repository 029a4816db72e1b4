// POST /api/business/users/join-requests/{id}/ {approve, role?} → the decided request.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZJoinRequest, type TDecideJoinRequest, type TJoinRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { membersQueryOptions } from '../../../lib/business/members';
import { JOIN_REQUESTS_PATH, joinRequestsQueryOptions } from './get-join-requests';

export async function decideJoinRequest({
  id,
  ...body
}: TDecideJoinRequest & { id: number }): Promise<TJoinRequest> {
  const { data } = await protectedClient.post(`${JOIN_REQUESTS_PATH}${id}/`, body);
  return ZEnvelope(ZJoinRequest).parse(data).result;
}

export function useDecideJoinRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decideJoinRequest,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: joinRequestsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: membersQueryOptions().queryKey }),
      ]);
    },
  });
}
