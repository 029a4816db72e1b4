// GET /api/msg/labels/ (next-api.md "Team inbox"): the business's labels. Shared: the inbox, the
// directory, journeys and campaigns put them on and filter by them; Settings → Labels changes them
// (features/settings/api/{create,update,delete}-label.ts).
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZLabel, type TLabel } from '@titan/contracts';
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
export function useInvalidateLabels() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: LABELS_KEY });
    void queryClient.invalidateQueries({ queryKey: [BUSINESS_SCOPE, 'conversations'] });
  };
}
