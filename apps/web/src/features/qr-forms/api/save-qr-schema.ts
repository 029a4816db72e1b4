// PUT /api/business/qr-schema/ → the saved form; the code image follows the saved address.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZQrSchema, type TQrSchema, type TSaveQrSchemaRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { QR_SCHEMA_API_PATH, QR_SCHEMA_KEY } from './get-qr-schema';

export function useSaveQrSchema() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: TSaveQrSchemaRequest): Promise<TQrSchema> => {
      const { data } = await protectedClient.put(QR_SCHEMA_API_PATH, body);
      return ZEnvelope(ZQrSchema).parse(data).result;
    },
    onSuccess: (schema) => {
      queryClient.setQueryData(QR_SCHEMA_KEY, schema);
      // The code image follows the saved address.
      return queryClient.invalidateQueries({ queryKey: [...QR_SCHEMA_KEY, 'svg'] });
    },
  });
}
