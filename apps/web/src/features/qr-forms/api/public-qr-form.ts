// The public form (no session): GET /api/public/qr-forms/{business_code}/{slug}/ reads it, POST to
// the same path sends the answers and the consent ticked.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZPublicQrForm, type TPublicQrForm, type TQrSubmission } from '@titan/contracts';

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

export function useSubmitQrForm(businessCode: string, slug: string) {
  return useMutation({
    mutationFn: async (body: TQrSubmission): Promise<void> => {
      await publicClient.post(publicQrFormPath(businessCode, slug), body);
    },
  });
}
