// DELETE /api/business/customer-lists/{id}/ → gone (its members stay in the directory).
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { CUSTOMER_LISTS_KEY } from '../../../lib/customer-lists';
import { protectedClient } from '../../../lib/protected-client';
import { listApiPath } from './get-list';

export async function deleteList(id: number): Promise<void> {
  await protectedClient.delete(listApiPath(id));
}

export function useDeleteList(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteList(id),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CUSTOMER_LISTS_KEY }),
  });
}
