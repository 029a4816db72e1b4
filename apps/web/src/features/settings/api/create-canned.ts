// POST /api/msg/canned-responses/: a new canned response.
import { useMutation } from '@tanstack/react-query';
import { ZCannedResponse, ZEnvelope, type TCannedResponseRequest } from '@titan/contracts';

import { CANNED_PATH, useInvalidateCanned } from '../../../lib/canned-responses';
import { protectedClient } from '../../../lib/protected-client';

export function useCreateCanned() {
  const invalidate = useInvalidateCanned();
  return useMutation({
    mutationFn: async (body: TCannedResponseRequest) => {
      const { data } = await protectedClient.post(CANNED_PATH, body);
      return ZEnvelope(ZCannedResponse).parse(data).result;
    },
    onSuccess: invalidate,
  });
}
