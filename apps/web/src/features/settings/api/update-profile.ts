// PUT /api/users/profile/ {first_name, last_name} → the profile.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, type TUpdateProfileRequest } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';
import { PROFILE_PATH, profileQueryOptions, ZProfile, type TProfile } from '../../../lib/session/profile';
import { useSessionStore } from '../../../stores/session';

export async function updateProfile(body: TUpdateProfileRequest): Promise<TProfile> {
  const { data } = await protectedClient.put(PROFILE_PATH, body);
  return ZEnvelope(ZProfile).parse(data).result;
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (profile) => {
      queryClient.setQueryData(profileQueryOptions().queryKey, profile);
      useSessionStore.getState().setUser(profile);
    },
  });
}
