// PUT /api/template/brand/ → the saved brand; 400 answers name the field.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEmailBrand, ZEnvelope, type TEmailBrand, type TUpdateEmailBrandRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_BRAND_API_PATH, emailBrandQueryOptions } from './get-email-brand';

export async function saveEmailBrand(body: TUpdateEmailBrandRequest): Promise<TEmailBrand> {
  const { data } = await protectedClient.put(EMAIL_BRAND_API_PATH, body);
  return ZEnvelope(ZEmailBrand).parse(data).result;
}

export function useSaveEmailBrand() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveEmailBrand,
    onSuccess: (brand) => queryClient.setQueryData(emailBrandQueryOptions().queryKey, brand),
  });
}
