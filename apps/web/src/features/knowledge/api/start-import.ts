// POST /api/kb/imports/ (pages as JSON, or files as multipart) → 202 with the queued import, which
// get-import.ts then polls.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZKbImport, type TKbImport, type TKbImportRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { importQueryOptions } from './get-import';
import { KB_IMPORTS_KEY, KB_IMPORTS_PATH } from './get-imports';

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
      void queryClient.invalidateQueries({ queryKey: KB_IMPORTS_KEY });
    },
  });
}
