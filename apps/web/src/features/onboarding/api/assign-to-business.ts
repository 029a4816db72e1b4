// POST /api/business/users/assign/: {token} accepts an invitation (joined now), {unique_code} files
// a join request (pending until an owner or admin approves it).
import { useMutation } from '@tanstack/react-query';
import { ZAssignResult, ZEnvelope, type TAssignRequest, type TAssignResult } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const ASSIGN_PATH = '/api/business/users/assign/';

export async function assignToBusiness(body: TAssignRequest): Promise<TAssignResult> {
  const { data } = await protectedClient.post(ASSIGN_PATH, body);
  return ZEnvelope(ZAssignResult).parse(data).result;
}

export function useAssignToBusiness() {
  return useMutation({ mutationFn: assignToBusiness });
}
