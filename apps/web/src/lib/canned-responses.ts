// Canned responses (next-api.md "Team inbox"): GET, POST /api/msg/canned-responses/ (?search=),
// PUT, DELETE …/{id}/, POST …/{id}/render/ {conversation_id}. Shared: Settings → Canned responses
// manages them; the inbox composer's `/` picker finds and renders them.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZCannedResponse,
  ZEnvelope,
  ZRenderedCanned,
  type TCannedResponse,
  type TCannedResponseRequest,
  type TRenderedCanned,
  type TUpdateCannedResponseRequest,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from './protected-client';
import { BUSINESS_SCOPE } from './query-client';

export const CANNED_PATH = '/api/msg/canned-responses/';
export const CANNED_KEY = [BUSINESS_SCOPE, 'canned-responses'] as const;

export async function getCannedResponses(search = '', signal?: AbortSignal): Promise<TCannedResponse[]> {
  const { data } = await protectedClient.get(CANNED_PATH, {
    params: search ? { search } : {},
    signal,
  });
  return ZEnvelope(z.array(ZCannedResponse)).parse(data).result;
}

export function cannedQueryOptions(search = '') {
  return queryOptions({
    queryKey: [...CANNED_KEY, search],
    queryFn: ({ signal }) => getCannedResponses(search, signal),
    meta: { errorShownOnScreen: true },
  });
}

export function useCannedResponses(search = '', enabled = true) {
  return useQuery({ ...cannedQueryOptions(search), enabled, placeholderData: keepPreviousData });
}

function useCannedMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: CANNED_KEY }),
  });
}

export function useCreateCanned() {
  return useCannedMutation(async (body: TCannedResponseRequest) => {
    const { data } = await protectedClient.post(CANNED_PATH, body);
    return ZEnvelope(ZCannedResponse).parse(data).result;
  });
}

export function useUpdateCanned() {
  return useCannedMutation(async ({ id, ...body }: TUpdateCannedResponseRequest & { id: number }) => {
    const { data } = await protectedClient.put(`${CANNED_PATH}${id}/`, body);
    return ZEnvelope(ZCannedResponse).parse(data).result;
  });
}

export function useDeleteCanned() {
  return useCannedMutation(async (id: number) => {
    await protectedClient.delete(`${CANNED_PATH}${id}/`);
  });
}

export async function renderCanned(id: number, conversationId: number): Promise<TRenderedCanned> {
  const { data } = await protectedClient.post(`${CANNED_PATH}${id}/render/`, {
    conversation_id: conversationId,
  });
  return ZEnvelope(ZRenderedCanned).parse(data).result;
}
