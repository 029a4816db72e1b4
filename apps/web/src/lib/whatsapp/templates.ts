// GET /api/whatsapp/template/?status&search → the business's WhatsApp templates as last synced from
// Meta. Shared: the templates screen lists them all, the inbox offers the approved ones once the
// 24-hour window has closed. Syncing invalidates both through WHATSAPP_TEMPLATES_KEY.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZPage, ZWhatsappTemplate, type TWhatsappTemplate } from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../protected-client';
import { BUSINESS_SCOPE } from '../query-client';

export const WHATSAPP_TEMPLATES_PATH = '/api/whatsapp/template/';
export const WHATSAPP_TEMPLATES_KEY = [BUSINESS_SCOPE, 'whatsapp-templates'] as const;

export type TWhatsappTemplateListParams = { status?: 'APPROVED'; search?: string };

// A plain list; a paged answer is read too, so either server shape shows the same rows.
const ZTemplateList = z.union([
  z.array(ZWhatsappTemplate),
  ZPage(ZWhatsappTemplate).transform((page) => page.results),
]);

export async function getWhatsappTemplates(
  params: TWhatsappTemplateListParams,
  signal?: AbortSignal,
): Promise<TWhatsappTemplate[]> {
  const { data } = await protectedClient.get(WHATSAPP_TEMPLATES_PATH, {
    params: {
      ...(params.status ? { status: params.status } : {}),
      ...(params.search ? { search: params.search } : {}),
    },
    signal,
  });
  return ZEnvelope(ZTemplateList).parse(data).result;
}

export function whatsappTemplatesQueryOptions(params: TWhatsappTemplateListParams) {
  return queryOptions({
    queryKey: [...WHATSAPP_TEMPLATES_KEY, 'list', params],
    queryFn: ({ signal }) => getWhatsappTemplates(params, signal),
    // A new search keeps the rows shown until its answer arrives.
    placeholderData: keepPreviousData,
    meta: { errorShownOnScreen: true },
  });
}

export function useWhatsappTemplates(params: TWhatsappTemplateListParams) {
  return useQuery(whatsappTemplatesQueryOptions(params));
}

/** The text of a template's component of that type (BODY, HEADER, FOOTER), if it has one. */
export function templateComponentText(template: Pick<TWhatsappTemplate, 'components'>, type: string) {
  const component = template.components.find((c) => c.type.toUpperCase() === type);
  return component?.text ?? null;
}
