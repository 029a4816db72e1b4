// The business's labels (next-api.md "Team inbox"): GET, POST /api/msg/labels/, PUT, DELETE …/{id}/.
// Shared: Settings → Labels manages them; the inbox and the directory put them on and filter by them.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZLabel,
  type TLabel,
  type TLabelRequest,
  type TUpdateLabelRequest,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export const LABELS_PATH = '/api/msg/labels/';
export const LABELS_KEY = [BUSINESS_SCOPE, 'labels'] as const;

export async function getLabels(): Promise<TLabel[]> {
  const { data } = await protectedClient.get(LABELS_PATH);
  return ZEnvelope(z.array(ZLabel)).parse(data).result;
}

export function labelsQueryOptions() {
  return queryOptions({ queryKey: LABELS_KEY, queryFn: getLabels, meta: { errorShownOnScreen: true } });
}

export function useLabels() {
  return useQuery(labelsQueryOptions());
}

/**
 * After a label changes, the rows that carry it (conversations, customers) are read again: they
 * show its name and colour.
 */
function useLabelMutation<TVars>(fn: (vars: TVars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: LABELS_KEY });
      void queryClient.invalidateQueries({ queryKey: [BUSINESS_SCOPE, 'conversations'] });
    },
  });
}

export function useCreateLabel() {
  return useLabelMutation(async (body: TLabelRequest) => {
    const { data } = await protectedClient.post(LABELS_PATH, body);
    return ZEnvelope(ZLabel).parse(data).result;
  });
}

export function useUpdateLabel() {
  return useLabelMutation(async ({ id, ...body }: TUpdateLabelRequest & { id: number }) => {
    const { data } = await protectedClient.put(`${LABELS_PATH}${id}/`, body);
    return ZEnvelope(ZLabel).parse(data).result;
  });
}

export function useDeleteLabel() {
  return useLabelMutation(async (id: number) => {
    await protectedClient.delete(`${LABELS_PATH}${id}/`);
  });
}
