// PUT /api/config/llm/ → the settings. The API key is write-only: omitted keeps the stored one
// while the base URL stays (a new URL drops it), null removes it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZLlmSettings, type TLlmSettings, type TSaveLlmSettingsRequest } from '@titan/contracts';

import { LLM_SETTINGS_PATH, llmSettingsQueryOptions } from '../../../lib/llm-settings';
import { protectedClient } from '../../../lib/protected-client';

export async function saveLlmSettings(body: TSaveLlmSettingsRequest): Promise<TLlmSettings> {
  const { data } = await protectedClient.put(LLM_SETTINGS_PATH, body);
  return ZEnvelope(ZLlmSettings).parse(data).result;
}

export function useSaveLlmSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveLlmSettings,
    onSuccess: (settings) => queryClient.setQueryData(llmSettingsQueryOptions().queryKey, settings),
  });
}
