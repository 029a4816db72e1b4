// GET /api/template/blocks/ → the blocks saved from the visual editor, by name.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailBlock, ZEnvelope, type TEmailBlock } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_TEMPLATES_API_PATH, EMAIL_TEMPLATES_KEY } from '../../../lib/email-templates';

export const EMAIL_BLOCKS_API_PATH = `${EMAIL_TEMPLATES_API_PATH}blocks/`;
export const EMAIL_BLOCKS_KEY = [...EMAIL_TEMPLATES_KEY, 'blocks'] as const;

export async function getEmailBlocks(signal?: AbortSignal): Promise<TEmailBlock[]> {
  const { data } = await protectedClient.get(EMAIL_BLOCKS_API_PATH, { signal });
  return ZEnvelope(z.array(ZEmailBlock)).parse(data).result;
}

export function emailBlocksQueryOptions() {
  return queryOptions({
    queryKey: EMAIL_BLOCKS_KEY,
    queryFn: ({ signal }) => getEmailBlocks(signal),
    meta: { errorShownOnScreen: true },
  });
}

/** `enabled`: false until the caller needs it (the editor, once Visual is chosen). */
export function useEmailBlocks(enabled = true) {
  return useQuery({ ...emailBlocksQueryOptions(), enabled });
}
