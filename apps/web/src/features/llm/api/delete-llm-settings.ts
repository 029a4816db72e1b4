// DELETE /api/config/llm/ → the settings once the business's own model is gone (the server's, or none).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZLlmSettings, type TLlmSettings } from '@titan/contracts';

import { LLM_SETTINGS_PATH, llmSettingsQueryOptions } from '../../../lib/llm-settings';
import { protectedClient } from '../../../lib/protected-client';

export async function deleteLlmSettings(): Promise<TLlmSettings> {
  const { data } = await protectedClient.delete(LLM_SETTINGS_PATH);
  return ZEnvelope(ZLlmSettings).parse(data).result;
}

export function useDeleteLlmSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLlmSettings,
    onSuccess: (settings) => queryClient.setQueryData(llmSettingsQueryOptions().queryKey, settings),
  });
}
