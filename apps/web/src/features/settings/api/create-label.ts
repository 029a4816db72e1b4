// POST /api/msg/labels/: a new label.
import { useMutation } from '@tanstack/react-query';
import { ZEnvelope, ZLabel, type TLabelRequest } from '@titan/contracts';

import { LABELS_PATH, useInvalidateLabels } from '../../../lib/labels';
import { protectedClient } from '../../../lib/protected-client';

export function useCreateLabel() {
  const invalidate = useInvalidateLabels();
  return useMutation({
    mutationFn: async (body: TLabelRequest) => {
      const { data } = await protectedClient.post(LABELS_PATH, body);
      return ZEnvelope(ZLabel).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
