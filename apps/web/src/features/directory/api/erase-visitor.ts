// POST /api/business/customer-directory/{id}/erase/ (engage.write): erases one customer and
// everything held on them (GDPR art. 17); 202, then 404 for that id everywhere.
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { protectedClient } from '../../../lib/protected-client';
import { visitorApiPath } from '../../../lib/customers/get-customer';
import { DIRECTORY_LISTS_KEY } from './get-visitors';

export async function eraseVisitor(id: number): Promise<void> {
  await protectedClient.post(`${visitorApiPath(id)}erase/`);
}

export function useEraseVisitor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: eraseVisitor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: DIRECTORY_LISTS_KEY }),
  });
}
