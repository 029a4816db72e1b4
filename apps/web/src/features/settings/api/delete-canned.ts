// DELETE /api/msg/canned-responses/{id}/: a canned response removed.
import { useMutation } from '@tanstack/react-query';

import { CANNED_PATH, useInvalidateCanned } from '../../../lib/canned-responses';
import { protectedClient } from '../../../lib/protected-client';

export function useDeleteCanned() {
  const invalidate = useInvalidateCanned();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${CANNED_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
