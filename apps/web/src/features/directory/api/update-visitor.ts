// PUT /api/business/customer-directory/{id}/ {name?, email?, phone?} → the visitor (engage.write;
// 400 with field errors). The answer replaces the visitor's page; lists refetch.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZDirectoryVisitor,
  ZEnvelope,
  type TDirectoryVisitor,
  type TUpdateDirectoryVisitorRequest,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { visitorApiPath, visitorQueryOptions } from '../../../lib/customers/get-customer';
import { DIRECTORY_LISTS_KEY } from './get-visitors';

export async function updateVisitor({
  id,
  ...body
}: TUpdateDirectoryVisitorRequest & { id: number }): Promise<TDirectoryVisitor> {
  const { data } = await protectedClient.put(visitorApiPath(id), body);
  return ZEnvelope(ZDirectoryVisitor).parse(data).result;
}

export function useUpdateVisitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateVisitor,
    onSuccess: (visitor) => {
      queryClient.setQueryData(visitorQueryOptions(visitor.id).queryKey, visitor);
      void queryClient.invalidateQueries({ queryKey: DIRECTORY_LISTS_KEY });
    },
  });
}
