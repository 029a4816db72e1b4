// GET the saved form's qr_svg_url / qr_png_url → its QR code (SVG to show, SVG or PNG to download),
// fetched with the session as the image route needs one.
import { useQuery } from '@tanstack/react-query';
import { type TQrSchema } from '@titan/contracts';

import { saveBlob } from '../../../lib/download';
import { protectedClient } from '../../../lib/protected-client';
import { QR_SCHEMA_KEY } from './get-qr-schema';

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
