// GET /api/business/customer-directory/download/?search=&list_id= → the audience as a CSV file
// (the directory, a search of it, or one list or segment), saved by the browser.
import type { TDirectoryExportQuery } from '@titan/contracts';

import { downloadCsv } from './download';

export const AUDIENCE_DOWNLOAD_PATH = '/api/business/customer-directory/download/';
/** The server streams every row; a million take a while to arrive. */
const EXPORT_TIMEOUT_MS = 10 * 60_000;

export function exportAudience(query: TDirectoryExportQuery): Promise<string> {
  return downloadCsv({
    path: AUDIENCE_DOWNLOAD_PATH,
    params: {
      ...(query.search ? { search: query.search } : {}),
      ...(query.list_id !== undefined ? { list_id: query.list_id } : {}),
    },
    timeout: EXPORT_TIMEOUT_MS,
    fallbackName: `visitors-${new Date().toISOString().slice(0, 10)}.csv`,
  });
}
