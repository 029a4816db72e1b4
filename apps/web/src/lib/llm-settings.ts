// GET /api/config/llm/ → the business's own AI model (never its key) and which model the AI features
// use. Shared: the AI model settings tab edits it, the AI template screen reads whether AI is available.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZLlmSettings, type TLlmSettings } from '@titan/contracts';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export const LLM_SETTINGS_PATH = '/api/config/llm/';

export async function getLlmSettings(signal?: AbortSignal): Promise<TLlmSettings> {
  const { data } = await protectedClient.get(LLM_SETTINGS_PATH, { signal });
  return ZEnvelope(ZLlmSettings).parse(data).result;
}

export function llmSettingsQueryOptions() {
  return queryOptions({
    queryKey: [BUSINESS_SCOPE, 'llm-settings'],
    queryFn: ({ signal }) => getLlmSettings(signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useLlmSettings() {
  return useQuery(llmSettingsQueryOptions());
}
