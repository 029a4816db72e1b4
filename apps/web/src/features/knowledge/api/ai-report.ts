// GET /api/ai/report/?from=&to= → how the AI first responder did over a period: answers, handoffs by
// reason, staff ratings, tokens and the newest answers rated bad.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZAiReport, ZEnvelope, type TAiReportQuery } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const AI_REPORT_PATH = '/api/ai/report/';

export function aiReportQueryOptions(period: TAiReportQuery | null) {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'ai-report', period],
    queryFn: async ({ signal }) => {
      const { data } = await protectedClient.get(AI_REPORT_PATH, { params: period ?? {}, signal });
      return ZEnvelope(ZAiReport).parse(data).result;
    },
    enabled: period !== null,
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

/** The report over `period` (null: not asked yet, e.g. while the range typed is not a range). */
export const useAiReport = (period: TAiReportQuery | null) => useQuery(aiReportQueryOptions(period));
