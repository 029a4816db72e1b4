// The business's QR form: GET and PUT /api/business/qr-schema/, and its QR code (SVG to show,
// SVG or PNG to download). The code is fetched with the session, as the image route needs one.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZQrSchema, type TQrSchema, type TSaveQrSchemaRequest } from '@titan/contracts';

import { saveBlob } from '../../../lib/download';
import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const QR_SCHEMA_API_PATH = '/api/business/qr-schema/';
const QR_SCHEMA_KEY = [BUSINESS_SCOPE, 'qr-schema'] as const;

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

/** The saved form's QR code as SVG text, keyed by the address it holds. */
export function useQrSvg(schema: TQrSchema) {
  return useQuery({
    queryKey: [...QR_SCHEMA_KEY, 'svg', schema.url],
    queryFn: async ({ signal }): Promise<string> => {
      const { data } = await protectedClient.get<string>(schema.qr_svg_url, {
        signal,
        responseType: 'text',
        headers: { Accept: 'image/svg+xml, application/json' },
      });
      return data;
    },
    enabled: schema.created_at !== null,
    meta: { errorShownOnScreen: true },
  });
}

/** Downloads the code as a file named after the form's address. */
export async function downloadQrCode(schema: TQrSchema, format: 'svg' | 'png'): Promise<void> {
  const path = format === 'svg' ? schema.qr_svg_url : schema.qr_png_url;
  const response = await protectedClient.get<Blob>(path, {
    responseType: 'blob',
    headers: { Accept: `image/${format === 'svg' ? 'svg+xml' : 'png'}, application/json` },
    ...(format === 'png' ? { params: { size: 1024 } } : {}),
  });
  saveBlob(response.data, `qr-${schema.slug}.${format}`);
}
