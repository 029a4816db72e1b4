// The agents API (engage.md §5): GET, POST /api/agents/, GET, PUT, DELETE /api/agents/{id}/,
// POST …/update-agent-config/ (a new immutable config version), PUT …/schedule/, POST …/avatar/ and
// GET /api/agents/get-suggested-agents/. Every change refreshes the list and the agent through
// AGENTS_KEY.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  ZAgent,
  ZAgentSchedule,
  ZEnvelope,
  ZSuggestedAgent,
  type TAgent,
  type TAgentConfigRequest,
  type TAgentSchedule,
  type TAgentScheduleRequest,
  type TCreateAgentRequest,
  type TSuggestedAgent,
  type TUpdateAgentRequest,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';
import { BUSINESS_SCOPE } from '../../../lib/query-client';

export const AGENTS_API_PATH = '/api/agents/';
export const agentApiPath = (id: number) => `${AGENTS_API_PATH}${id}/`;

/** Every agents query of the business starts with this key (runs included). */
export const AGENTS_KEY = [BUSINESS_SCOPE, 'agents'] as const;

export function agentsQueryOptions() {
  return queryOptions({
    queryKey: [...AGENTS_KEY, 'list'],
    queryFn: async ({ signal }): Promise<TAgent[]> => {
      const { data } = await protectedClient.get(AGENTS_API_PATH, { signal });
      return ZEnvelope(z.array(ZAgent)).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useAgents() {
  return useQuery(agentsQueryOptions());
}

export function agentQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...AGENTS_KEY, 'one', id],
    queryFn: async ({ signal }): Promise<TAgent> => {
      const { data } = await protectedClient.get(agentApiPath(id), { signal });
      return ZEnvelope(ZAgent).parse(data).result;
    },
    meta: { errorShownOnScreen: true },
  });
}

export function useAgent(id: number) {
  return useQuery(agentQueryOptions(id));
}

export function useSuggestedAgents(enabled: boolean) {
  return useQuery({
    queryKey: [...AGENTS_KEY, 'suggested'],
    queryFn: async ({ signal }): Promise<TSuggestedAgent[]> => {
      const { data } = await protectedClient.get(`${AGENTS_API_PATH}get-suggested-agents/`, { signal });
      return ZEnvelope(z.array(ZSuggestedAgent)).parse(data).result;
    },
    enabled,
    meta: { errorShownOnScreen: true },
  });
}

/** The agent as answered is the truth: cache it and refresh the list. */
function remember(queryClient: QueryClient, agent: TAgent) {
  queryClient.setQueryData(agentQueryOptions(agent.id).queryKey, agent);
  void queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey });
}

export async function createAgent(body: TCreateAgentRequest): Promise<TAgent> {
  const { data } = await protectedClient.post(AGENTS_API_PATH, body);
  return ZEnvelope(ZAgent).parse(data).result;
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createAgent, onSuccess: (agent) => remember(queryClient, agent) });
}

export async function updateAgent({ id, ...body }: TUpdateAgentRequest & { id: number }): Promise<TAgent> {
  const { data } = await protectedClient.put(agentApiPath(id), body);
  return ZEnvelope(ZAgent).parse(data).result;
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateAgent, onSuccess: (agent) => remember(queryClient, agent) });
}

/** Writes the next config version; the agent is answered with it. */
export async function updateAgentConfig({
  id,
  config,
}: {
  id: number;
  config: TAgentConfigRequest;
}): Promise<TAgent> {
  const { data } = await protectedClient.post(`${agentApiPath(id)}update-agent-config/`, config);
  return ZEnvelope(ZAgent).parse(data).result;
}

export function useUpdateAgentConfig() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateAgentConfig, onSuccess: (agent) => remember(queryClient, agent) });
}

export async function saveAgentSchedule({
  id,
  schedule,
}: {
  id: number;
  schedule: TAgentScheduleRequest;
}): Promise<TAgentSchedule> {
  const { data } = await protectedClient.put(`${agentApiPath(id)}schedule/`, schedule);
  return ZEnvelope(ZAgentSchedule).parse(data).result;
}

export function useSaveAgentSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAgentSchedule,
    onSuccess: (schedule, { id }) => {
      queryClient.setQueryData(agentQueryOptions(id).queryKey, (agent) =>
        agent ? { ...agent, schedule } : agent,
      );
      void queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey });
    },
  });
}

export async function uploadAgentAvatar({ id, file }: { id: number; file: File }): Promise<TAgent> {
  const form = new FormData();
  form.append('file', file);
  const { data } = await protectedClient.post(`${agentApiPath(id)}avatar/`, form, {
    // Not JSON: the browser sets multipart/form-data with its boundary.
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return ZEnvelope(ZAgent).parse(data).result;
}

export function useUploadAgentAvatar() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadAgentAvatar, onSuccess: (agent) => remember(queryClient, agent) });
}

export async function deleteAgent(id: number): Promise<void> {
  await protectedClient.delete(agentApiPath(id));
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSuccess: (_, id) => {
      queryClient.removeQueries({ queryKey: agentQueryOptions(id).queryKey });
      void queryClient.invalidateQueries({ queryKey: agentsQueryOptions().queryKey });
    },
  });
}
