// POST /api/agents/{id}/preview/ → a dry run on a few customers, rendered; nothing is sent.
import { useMutation } from '@tanstack/react-query';
import {
  ZAgentPreviewResult,
  ZEnvelope,
  type TAgentPreviewRequest,
  type TAgentPreviewResult,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { agentApiPath } from './get-agents';

export async function previewAgent({
  agentId,
  ...body
}: TAgentPreviewRequest & { agentId: number }): Promise<TAgentPreviewResult> {
  const { data } = await protectedClient.post(`${agentApiPath(agentId)}preview/`, body);
  return ZEnvelope(ZAgentPreviewResult).parse(data).result;
}

export function usePreviewAgent() {
  return useMutation({ mutationFn: previewAgent });
}
