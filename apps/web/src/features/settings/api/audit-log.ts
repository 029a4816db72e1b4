// GET /api/audit-log/ (filters, pages) and its CSV download.
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { ZAuditPage, ZEnvelope, type TAuditFilter } from '@titan/contracts';

import { downloadCsv } from '../../../lib/download';
import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const AUDIT_LOG_PATH = '/api/audit-log/';

export type TAuditLogQuery = TAuditFilter & { page: number; page_size: number };

const clean = (query: object) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));

export function auditLogQueryOptions(query: TAuditLogQuery) {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'audit-log', query],
    queryFn: async () =>
      ZEnvelope(ZAuditPage).parse((await protectedClient.get(AUDIT_LOG_PATH, { params: clean(query) })).data)
        .result,
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}
export const useAuditLog = (query: TAuditLogQuery) => useQuery(auditLogQueryOptions(query));

export function useDownloadAuditLog() {
  return useMutation({
    mutationFn: (filter: TAuditFilter) =>
      downloadCsv({
        path: `${AUDIT_LOG_PATH}download/`,
        params: clean(filter),
        timeout: 60_000,
        fallbackName: `audit-log-${new Date().toISOString().slice(0, 10)}.csv`,
      }),
  });
}
