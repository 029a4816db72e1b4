// POST /api/whatsapp/template/sync/ → {synced, removed}: the templates fetched again from Meta. Every
// template list (this screen's and the inbox's picker) is refetched afterwards.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { WHATSAPP_TIMEOUT_MS, ZEnvelope, ZTemplateSyncResult } from '@titan/contracts';
import type { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { WHATSAPP_TEMPLATES_KEY, WHATSAPP_TEMPLATES_PATH } from '../../../lib/whatsapp/templates';

export type TTemplateSyncResult = z.infer<typeof ZTemplateSyncResult>;

export async function syncWhatsappTemplates(): Promise<TTemplateSyncResult> {
  const { data } = await protectedClient.post(`${WHATSAPP_TEMPLATES_PATH}sync/`, null, {
    timeout: WHATSAPP_TIMEOUT_MS,
  });
  return ZEnvelope(ZTemplateSyncResult).parse(data).result;
}

export function useSyncWhatsappTemplates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: syncWhatsappTemplates,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: WHATSAPP_TEMPLATES_KEY }),
  });
}
