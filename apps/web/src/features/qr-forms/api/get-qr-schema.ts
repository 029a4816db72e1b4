// GET /api/business/qr-schema/ → the business's QR form (its fields, lists and consent wording).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZQrSchema, type TQrSchema } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const QR_SCHEMA_API_PATH = '/api/business/qr-schema/';

export const QR_SCHEMA_KEY = [BUSINESS_SCOPE, 'qr-schema'] as const;

export function qrSchemaQueryOptions() {
  return queryOptions({
    queryKey: QR_SCHEMA_KEY,
    queryFn: async ({ signal }): Promise<TQrSchema> => {
      const { data } = await protectedClient.get(QR_SCHEMA_API_PATH, { signal });
      return ZEnvelope(ZQrSchema).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useQrSchema() {
  return useQuery(qrSchemaQueryOptions());
}
