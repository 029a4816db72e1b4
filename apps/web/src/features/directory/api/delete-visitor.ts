// DELETE /api/business/customer-directory/{id}/ (engage.write). Their conversations stay.
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { visitorApiPath, visitorQueryOptions } from '../../../lib/customers/get-customer';
import { DIRECTORY_LISTS_KEY } from './get-visitors';

export async function deleteVisitor(id: number): Promise<void> {
  await protectedClient.delete(visitorApiPath(id));
}

export function useDeleteVisitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteVisitor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DIRECTORY_LISTS_KEY }),
  });
}

/** Drops a deleted visitor's cached page. Only once their page has gone: a mounted page would
 * refetch at once and meet a 404. */
export function forgetVisitor(queryClient: QueryClient, id: number): void {
  queryClient.removeQueries({ queryKey: visitorQueryOptions(id).queryKey });
}
