// GET /api/kb/imports/: the latest knowledge-base imports.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZKbImportList } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { KB_KEY } from './get-articles';

export const KB_IMPORTS_PATH = '/api/kb/imports/';
export const KB_IMPORTS_KEY = [...KB_KEY, 'imports'] as const;

export function importsQueryOptions() {
  return queryOptions({
    queryKey: KB_IMPORTS_KEY,
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(KB_IMPORTS_PATH, { signal });
      return ZEnvelope(ZKbImportList).parse(data).result.results;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useImports = () => useQuery(importsQueryOptions());
