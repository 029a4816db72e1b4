// DELETE /api/msg/labels/{id}/: a label removed (from every conversation and customer too).
import { useMutation } from '@tanstack/react-query';

import { LABELS_PATH, useInvalidateLabels } from '../../../lib/labels';
import { protectedClient } from '../../../lib/protected-client';

export function useDeleteLabel() {
  const invalidate = useInvalidateLabels();
  return useMutation({
    mutationFn: async (id: number) => {
      await protectedClient.delete(`${LABELS_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
