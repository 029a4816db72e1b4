// GET /api/agents/{id}/runs/?channel&kind&page&page_size → a page of an agent's runs on a channel
// (real runs or previews), followed live while one is running.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZAgentRunSummary, ZEnvelope, ZPage, type TAgentChannel } from '@titan/contracts';
import { type z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { AGENTS_KEY, agentApiPath } from './get-agents';

export const RUNS_PAGE_SIZE = 20;

/** While a run is going, its log follows it. */
export const LIVE_REFRESH_MS = 2000;

const ZRunPage = ZPage(ZAgentRunSummary);

export type TRunPage = z.infer<typeof ZRunPage>;

export const runsKey = (agentId: number) => [...AGENTS_KEY, 'runs', agentId] as const;

/** `real`: runs that could send; `preview`: previews, kept apart in the run log. */
export type TRunKind = 'real' | 'preview';

export async function getAgentRuns(
  agentId: number,
  params: { channel: TAgentChannel; kind: TRunKind; page: number },
  signal?: AbortSignal,
): Promise<TRunPage> {
  const { data } = await protectedClient.get(`${agentApiPath(agentId)}runs/`, {
    params: { ...params, page_size: RUNS_PAGE_SIZE },
    signal,
  });
  return ZEnvelope(ZRunPage).parse(data).result;
}

export function agentRunsQueryOptions(
  agentId: number,
  channel: TAgentChannel,
  page: number,
  kind: TRunKind = 'real',
) {
  return queryOptions({
    queryKey: [...runsKey(agentId), 'list', channel, kind, page],
    queryFn: ({ signal }) => getAgentRuns(agentId, { channel, kind, page }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.results.some((r) => r.status === 'running') ? LIVE_REFRESH_MS : false,
    meta: { errorShownOnScreen: true },
  });
}

export function useAgentRuns(agentId: number, channel: TAgentChannel, page: number, kind: TRunKind = 'real') {
  return useQuery(agentRunsQueryOptions(agentId, channel, page, kind));
}
