// GET /api/template/brand/ → the business's brand for mail (the defaults until first saved).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEmailBrand, ZEnvelope, type TEmailBrand } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { EMAIL_TEMPLATES_API_PATH, EMAIL_TEMPLATES_KEY } from '../../../lib/email-templates';

export const EMAIL_BRAND_API_PATH = `${EMAIL_TEMPLATES_API_PATH}brand/`;
export const EMAIL_BRAND_KEY = [...EMAIL_TEMPLATES_KEY, 'brand'] as const;

export async function getEmailBrand(signal?: AbortSignal): Promise<TEmailBrand> {
  const { data } = await protectedClient.get(EMAIL_BRAND_API_PATH, { signal });
  return ZEnvelope(ZEmailBrand).parse(data).result;
}

export function emailBrandQueryOptions() {
  return queryOptions({
    queryKey: EMAIL_BRAND_KEY,
    queryFn: ({ signal }) => getEmailBrand(signal),
    meta: { errorShownOnScreen: true },
  });
}

/** `enabled`: false until the caller needs it (the editor, once Visual is chosen). */
export function useEmailBrand(enabled = true) {
  return useQuery({ ...emailBrandQueryOptions(), enabled });
}
