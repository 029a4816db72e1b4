// POST /api/config/llm/test/ → whether the model in use answers, and what it said or why not.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZLlmTestResult, type TLlmTestResult } from '@titan/contracts';

import { LLM_SETTINGS_PATH, llmSettingsQueryOptions } from '../../../lib/llm-settings';
import { protectedClient } from '../../../lib/protected-client';

export async function testLlmConnection(): Promise<TLlmTestResult> {
  // The model may take a while to answer: longer than the client's default timeout.
  const { data } = await protectedClient.post(`${LLM_SETTINGS_PATH}test/`, undefined, { timeout: 120_000 });
  return ZEnvelope(ZLlmTestResult).parse(data).result;
}

export function useTestLlmConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: testLlmConnection,
    // The call counts in the usage shown.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: llmSettingsQueryOptions().queryKey }),
  });
}
