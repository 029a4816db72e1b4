// POST /api/template/blocks/ {name, content} → the saved block; 400 answers name the field.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEmailBlock, ZEnvelope, type TCreateEmailBlockRequest, type TEmailBlock } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_BLOCKS_API_PATH, EMAIL_BLOCKS_KEY } from './get-email-blocks';

export async function createEmailBlock(body: TCreateEmailBlockRequest): Promise<TEmailBlock> {
  const { data } = await protectedClient.post(EMAIL_BLOCKS_API_PATH, body);
  return ZEnvelope(ZEmailBlock).parse(data).result;
}

export function useCreateEmailBlock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEmailBlock,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: EMAIL_BLOCKS_KEY }),
  });
}
