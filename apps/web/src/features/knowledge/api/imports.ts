// Knowledge-base imports: POST /api/kb/imports/ (pages as JSON, or files as multipart) → 202, then
// GET /api/kb/imports/{id}/ polled while the job runs; GET /api/kb/imports/ the latest ones.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZKbImport, ZKbImportList, type TKbImport, type TKbImportRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { KB_KEY } from './knowledge';

export const KB_IMPORTS_PATH = '/api/kb/imports/';
/** How often a running import is asked for its progress. */
export const IMPORT_POLL_MS = 1000;

const running = (imp: TKbImport | undefined) => imp?.status === 'queued' || imp?.status === 'running';

export function importsQueryOptions() {
  return queryOptions({
    queryKey: [...KB_KEY, 'imports'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(KB_IMPORTS_PATH, { signal });
      return ZEnvelope(ZKbImportList).parse(data).result.results;
    },
    meta: { errorShownOnScreen: true },
  });
}

export const useImports = () => useQuery(importsQueryOptions());

export function importQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...KB_KEY, 'import', id],
    queryFn: async ({ signal }): Promise<TKbImport> => {
      const { data } = await protectedClient.get(`${KB_IMPORTS_PATH}${id}/`, { signal });
      return ZEnvelope(ZKbImport).parse(data).result;
    },
    refetchInterval: (query) => (running(query.state.data) ? IMPORT_POLL_MS : false),
    meta: { errorShownOnScreen: true },
  });
}

/** An import, asked again every second while it runs. */
export function useImport(id: number | null) {
  return useQuery({ ...importQueryOptions(id ?? 0), enabled: id !== null });
}

export const isImportRunning = running;

export type TImportTarget = { locale: string; status: 'draft' | 'published'; category_id: number | null };

export function useStartImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (
      input: ({ kind: 'pages' } & TKbImportRequest) | ({ kind: 'files'; files: File[] } & TImportTarget),
    ): Promise<TKbImport> => {
      if (input.kind === 'files') {
        const form = new FormData();
        form.append('locale', input.locale);
        form.append('status', input.status);
        if (input.category_id) form.append('category_id', String(input.category_id));
        for (const file of input.files) form.append('files', file, file.name);
        const { data } = await protectedClient.post(KB_IMPORTS_PATH, form, {
          // Twenty files of up to 10 MB take longer than a JSON call.
          timeout: 5 * 60_000,
          // Not JSON: the browser sets multipart/form-data with its boundary.
          headers: { 'Content-Type': 'multipart/form-data' },
        });
        return ZEnvelope(ZKbImport).parse(data).result;
      }
      const { kind: _kind, ...body } = input;
      const { data } = await protectedClient.post(KB_IMPORTS_PATH, body);
      return ZEnvelope(ZKbImport).parse(data).result;
    },
    onSuccess: (imp) => {
      queryClient.setQueryData(importQueryOptions(imp.id).queryKey, imp);
      void queryClient.invalidateQueries({ queryKey: [...KB_KEY, 'imports'] });
    },
  });
}
