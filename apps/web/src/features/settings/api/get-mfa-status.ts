// GET /api/auth/2fa/ → the signed-in user's second factors (TOTP, recovery codes left, passkeys).
// Every security query starts with ['security']; each change fetches them again (useInvalidateSecurity).
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZEnvelope, ZMfaStatus, type TMfaStatus } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const MFA_STATUS_PATH = '/api/auth/2fa/';

export function mfaStatusQueryOptions() {
  return queryOptions({
    queryKey: ['security', 'mfa'],
    queryFn: async (): Promise<TMfaStatus> =>
      ZEnvelope(ZMfaStatus).parse((await protectedClient.get(MFA_STATUS_PATH)).data).result,
    meta: { errorShownOnScreen: true },
  });
}

export const useMfaStatus = () => useQuery(mfaStatusQueryOptions());

export function useInvalidateSecurity() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: ['security'] });
}
