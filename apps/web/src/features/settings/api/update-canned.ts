// PUT /api/msg/canned-responses/{id}/: a canned response changed.
import { useMutation } from '@tanstack/react-query';
import { ZCannedResponse, ZEnvelope, type TUpdateCannedResponseRequest } from '@titan/contracts';

import { CANNED_PATH, useInvalidateCanned } from '../../../lib/canned-responses';
import { protectedClient } from '../../../lib/protected-client';

export function useUpdateCanned() {
  const invalidate = useInvalidateCanned();
  return useMutation({
    mutationFn: async ({ id, ...body }: TUpdateCannedResponseRequest & { id: number }) => {
      const { data } = await protectedClient.put(`${CANNED_PATH}${id}/`, body);
      return ZEnvelope(ZCannedResponse).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
