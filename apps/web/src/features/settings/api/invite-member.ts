// POST /api/business/users/ {email, role} → the invitation; a mail with the join link is sent.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZInvitation, type TInvitation, type TInviteMemberRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { invitationsQueryOptions } from './get-invitations';
import { MEMBERS_PATH } from '../../../lib/business/members';

export async function inviteMember(body: TInviteMemberRequest): Promise<TInvitation> {
  const { data } = await protectedClient.post(MEMBERS_PATH, body);
  return ZEnvelope(ZInvitation).parse(data).result;
}

export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationsQueryOptions().queryKey }),
  });
}
