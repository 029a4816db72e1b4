// GET /api/kb/imports/{id}/: one import, polled while its job runs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZKbImport, type TKbImport } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { KB_KEY } from './get-articles';
import { KB_IMPORTS_PATH } from './get-imports';

/** How often a running import is asked for its progress. */
export const IMPORT_POLL_MS = 1000;

export const isImportRunning = (imp: TKbImport | undefined) =>
  imp?.status === 'queued' || imp?.status === 'running';

export function importQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...KB_KEY, 'import', id],
    queryFn: async ({ signal }): Promise<TKbImport> => {
      const { data } = await protectedClient.get(`${KB_IMPORTS_PATH}${id}/`, { signal });
      return ZEnvelope(ZKbImport).parse(data).result;
    },
    refetchInterval: (query) => (isImportRunning(query.state.data) ? IMPORT_POLL_MS : false),
    meta: { errorShownOnScreen: true },
  });
}

/** An import, asked again every second while it runs. */
export function useImport(id: number | null) {
  return useQuery({ ...importQueryOptions(id ?? 0), enabled: id !== null });
}
