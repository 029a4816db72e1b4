// GET /api/public/qr-forms/{business_code}/{slug}/ (no session) → the public form a QR code opens.
import { useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZPublicQrForm, type TPublicQrForm } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const publicQrFormPath = (businessCode: string, slug: string) =>
  `/api/public/qr-forms/${encodeURIComponent(businessCode)}/${encodeURIComponent(slug)}/`;

export function usePublicQrForm(businessCode: string, slug: string) {
  return useQuery({
    queryKey: ['public-qr-form', businessCode, slug],
    queryFn: async ({ signal }): Promise<TPublicQrForm> => {
      const { data } = await publicClient.get(publicQrFormPath(businessCode, slug), { signal });
      return ZEnvelope(ZPublicQrForm).parse(data).result;
    },
    retry: false,
    meta: { errorShownOnScreen: true },
  });
}
