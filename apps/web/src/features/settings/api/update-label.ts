// PUT /api/msg/labels/{id}/: a label renamed or recoloured.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZLabel, type TUpdateLabelRequest } from '@titan/contracts';

import { LABELS_PATH, useInvalidateLabels } from '../../../lib/labels';
import { protectedClient } from '../../../lib/protected-client';

export function useUpdateLabel() {
  const invalidate = useInvalidateLabels();
  return useMutation({
    mutationFn: async ({ id, ...body }: TUpdateLabelRequest & { id: number }) => {
      const { data } = await protectedClient.put(`${LABELS_PATH}${id}/`, body);
      return ZEnvelope(ZLabel).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
