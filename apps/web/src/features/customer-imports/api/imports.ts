// The CSV import API: POST /api/business/customer-directory/import/ (multipart: file, mode,
// list_id, column_map, delimiter, consent, consent_proof, consent_channels) → 202 with the import;
// GET …/imports/{id}/ its progress; the errors CSV (…/imports/{id}/errors/) fetched with the
// session and handed to the browser as a download.
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import {
  PAGE_SIZE_MAX,
  ZCustomerImport,
  ZCustomerList,
  ZEnvelope,
  ZPage,
  type TCustomerImport,
  type TImportConsentChannel,
  type TImportDelimiter,
  type TImportMode,
} from '@titan/contracts';

import { saveBlob } from '../../../lib/download';
import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const IMPORT_API_PATH = '/api/business/customer-directory/import/';
export const importApiPath = (id: string) => `/api/business/customer-directory/imports/${id}/`;

/** A file of up to 100 MB goes up in one request: far longer than the usual five seconds. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;
const DOWNLOAD_TIMEOUT_MS = 60_000;

export type TStartImport = {
  file: File;
  mode: TImportMode;
  listId: number | null;
  /** Column name (as the header reader read it) → name, email, phone, …, ignore or a field name. */
  columnMap: Record<string, string>;
  /** As the preview read the file, so the columns mapped are the ones the server reads. */
  delimiter: TImportDelimiter;
  consent: TImportConsentChoice;
};

/** What consent the rows carry: unknown, or subscribed with its proof on some channels. */
export type TImportConsentChoice =
  { kind: 'unknown' } | { kind: 'subscribed'; proof: string; channels: TImportConsentChannel[] };

export async function startImport({
  file,
  mode,
  listId,
  columnMap,
  delimiter,
  consent,
}: TStartImport): Promise<TCustomerImport> {
  const form = new FormData();
  form.append('mode', mode);
  if (listId !== null) form.append('list_id', String(listId));
  form.append('column_map', JSON.stringify(columnMap));
  form.append('delimiter', delimiter);
  form.append('consent', consent.kind);
  if (consent.kind === 'subscribed') {
    form.append('consent_proof', consent.proof.trim());
    form.append('consent_channels', consent.channels.join(','));
  }
  form.append('file', file, file.name);
  const { data } = await protectedClient.post(IMPORT_API_PATH, form, {
    timeout: UPLOAD_TIMEOUT_MS,
    // Not JSON: the browser sets multipart/form-data with its boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZCustomerImport).parse(data).result;
}

export function useStartImport() {
  return useMutation({ mutationFn: startImport });
}

export const importQueryKey = (id: string) => [BUSINESS_SCOPE, 'customer-imports', id] as const;

export function importQueryOptions(id: string) {
  return queryOptions({
    queryKey: importQueryKey(id),
    queryFn: async ({ signal }): Promise<TCustomerImport> => {
      const { data } = await protectedClient.get(importApiPath(id), { signal });
      return ZEnvelope(ZCustomerImport).parse(data).result;
    },
  });
}

/** The static lists an import can fill (segments follow their conditions, not imports). */
export function useStaticLists() {
  return useQuery({
    queryKey: [BUSINESS_SCOPE, 'customer-lists', 'static-for-import'],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get('/api/business/customer-lists/', {
        params: { page: 1, page_size: PAGE_SIZE_MAX },
        signal,
      });
      return ZEnvelope(ZPage(ZCustomerList))
        .parse(data)
        .result.results.filter((list) => list.kind === 'static');
    },
  });
}

export async function downloadImportErrors(imp: Pick<TCustomerImport, 'id' | 'errors_url'>): Promise<void> {
  if (!imp.errors_url) return;
  const response = await protectedClient.get<Blob>(imp.errors_url, {
    responseType: 'blob',
    timeout: DOWNLOAD_TIMEOUT_MS,
    headers: { Accept: 'text/csv, application/json' },
  });
  saveBlob(response.data, `import-${imp.id}-errors.csv`);
}

export function useDownloadImportErrors() {
  return useMutation({ mutationFn: downloadImportErrors });
}
