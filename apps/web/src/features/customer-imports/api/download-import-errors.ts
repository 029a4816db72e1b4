// GET /api/business/customer-directory/imports/{id}/errors/ (the import's errors_url) → the rows that
// failed as CSV, fetched with the session and handed to the browser as a download.
import { useMutation } from '@tanstack/react-query';
import { type TCustomerImport } from '@titan/contracts';

import { saveBlob } from '../../../lib/download';
import { protectedClient } from '../../../lib/protected-client';

const DOWNLOAD_TIMEOUT_MS = 60_000;

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
