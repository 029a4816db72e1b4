// POST /api/public/qr-forms/{business_code}/{slug}/ (no session) → the answers and the consent ticked.
import { useMutation } from '@tanstack/react-query';
import { type TQrSubmission } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';
import { publicQrFormPath } from './get-public-qr-form';

export function useSubmitQrForm(businessCode: string, slug: string) {
  return useMutation({
    mutationFn: async (body: TQrSubmission): Promise<void> => {
      await publicClient.post(publicQrFormPath(businessCode, slug), body);
    },
  });
}
