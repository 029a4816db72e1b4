// POST /api/agents/{id}/runs/{runId}/approve/ or …/reject/ → how many deliveries the review changed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  ZAgentReviewResult,
  ZEnvelope,
  type TAgentReviewRequest,
  type TAgentReviewResult,
} from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { runsKey } from './get-agent-runs';
import { agentApiPath } from './get-agents';

type TReviewVars = {
  agentId: number;
  runId: string;
  action: 'approve' | 'reject';
  body: TAgentReviewRequest;
};

export async function reviewDeliveries({
  agentId,
  runId,
  action,
  body,
}: TReviewVars): Promise<TAgentReviewResult> {
  const { data } = await protectedClient.post(
    `${agentApiPath(agentId)}runs/${encodeURIComponent(runId)}/${action}/`,
    body,
  );
  return ZEnvelope(ZAgentReviewResult).parse(data).result;
}

export function useReviewDeliveries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reviewDeliveries,
    onSettled: (_, __, { agentId }) => queryClient.invalidateQueries({ queryKey: runsKey(agentId) }),
  });
}
