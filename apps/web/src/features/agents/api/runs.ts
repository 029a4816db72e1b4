// An agent's runs (engage.md §5): GET /api/agents/{id}/runs/?channel=, GET …/runs/{runId}/, the
// review queue (POST …/runs/{runId}/approve/ and …/reject/), POST …/preview/ (a dry run on a few
// customers, rendered), POST …/run-now/ and GET /api/agents/tools/ (what an agent may use).
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZAgentPreviewResult,
  ZAgentReviewResult,
  ZAgentRun,
  ZAgentRunNowResult,
  ZAgentRunSummary,
  ZAgentToolInfo,
  ZEnvelope,
  ZPage,
  type TAgentChannel,
  type TAgentPreviewRequest,
  type TAgentPreviewResult,
  type TAgentReviewRequest,
  type TAgentReviewResult,
  type TAgentRun,
  type TAgentRunNowRequest,
  type TAgentRunNowResult,
  type TAgentToolInfo,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { AGENTS_API_PATH, AGENTS_KEY, agentApiPath } from './agents';

export const RUNS_PAGE_SIZE = 20;
export const RUN_ITEMS_PAGE_SIZE = 100;
/** While a run is going, its log follows it. */
const LIVE_REFRESH_MS = 2000;

const ZRunPage = ZPage(ZAgentRunSummary);
export type TRunPage = z.infer<typeof ZRunPage>;

const runsKey = (agentId: number) => [...AGENTS_KEY, 'runs', agentId] as const;

/** `real`: runs that could send; `preview`: previews, kept apart in the run log. */
export type TRunKind = 'real' | 'preview';

export function useAgentRuns(agentId: number, channel: TAgentChannel, page: number, kind: TRunKind = 'real') {
  return useQuery({
    queryKey: [...runsKey(agentId), 'list', channel, kind, page],
    queryFn: async ({ signal }): Promise<TRunPage> => {
      const { data } = await protectedClient.get(`${agentApiPath(agentId)}runs/`, {
        params: { channel, kind, page, page_size: RUNS_PAGE_SIZE },
        signal,
      });
      return ZEnvelope(ZRunPage).parse(data).result;
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.results.some((r) => r.status === 'running') ? LIVE_REFRESH_MS : false,
    meta: { errorShownOnScreen: true },
  });
}

export function agentRunQueryOptions(agentId: number, runId: string, pageSize: number) {
  return queryOptions({
    queryKey: [...runsKey(agentId), 'one', runId, pageSize],
    queryFn: async ({ signal }): Promise<TAgentRun> => {
      const { data } = await protectedClient.get(
        `${agentApiPath(agentId)}runs/${encodeURIComponent(runId)}/`,
        {
          params: { page: 1, page_size: pageSize },
          signal,
        },
      );
      return ZEnvelope(ZAgentRun).parse(data).result;
    },
    // Also while approved or planned messages are still becoming sends.
    refetchInterval: (query) => {
      const run = query.state.data;
      const moving = run?.deliveries.some((d) => d.status === 'approved' || d.status === 'planned');
      return run?.status === 'running' || moving ? LIVE_REFRESH_MS : false;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useAgentRun(agentId: number, runId: string, pageSize = RUN_ITEMS_PAGE_SIZE) {
  return useQuery({ ...agentRunQueryOptions(agentId, runId, pageSize), placeholderData: keepPreviousData });
}

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

export async function runAgentNow({
  agentId,
  ...body
}: TAgentRunNowRequest & { agentId: number }): Promise<TAgentRunNowResult> {
  const { data } = await protectedClient.post(`${agentApiPath(agentId)}run-now/`, body);
  return ZEnvelope(ZAgentRunNowResult).parse(data).result;
}

export function useRunAgentNow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runAgentNow,
    onSuccess: (_, { agentId }) => {
      void queryClient.invalidateQueries({ queryKey: runsKey(agentId) });
      void queryClient.invalidateQueries({ queryKey: [...AGENTS_KEY, 'list'] });
    },
  });
}

export function useAgentTools() {
  return useQuery({
    queryKey: [...AGENTS_KEY, 'tools'],
    queryFn: async ({ signal }): Promise<TAgentToolInfo[]> => {
      const { data } = await protectedClient.get(`${AGENTS_API_PATH}tools/`, { signal });
      return ZEnvelope(z.array(ZAgentToolInfo)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}
