// GET /api/business/users/invitation/?token= (public) → the business, email and role invited.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZEnvelope, ZInvitationInfo, type TInvitationInfo } from '@titan/contracts';

import { publicClient } from '../../../lib/api-client';

export const INVITATION_PATH = '/api/business/users/invitation/';

export async function getInvitation(token: string): Promise<TInvitationInfo> {
  const { data } = await publicClient.get(INVITATION_PATH, { params: { token } });
  return ZEnvelope(ZInvitationInfo).parse(data).result;
}

export function invitationQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['invitation', token],
    queryFn: () => getInvitation(token),
    retry: false,
    // The invitation screen explains an invalid or expired invitation itself.
    meta: { errorShownOnScreen: true },
  });
}

export function useInvitation(token: string) {
  return useQuery(invitationQueryOptions(token));
}
