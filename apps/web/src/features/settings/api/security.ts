// The signed-in user's second factors, passkeys and sessions (next-api.md "Platform"):
// GET /api/auth/2fa/, TOTP set-up / confirm / off, passkeys (WebAuthn ceremonies through
// @simplewebauthn/browser), GET and DELETE /api/auth/sessions/.
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZEnvelope,
  ZMfaStatus,
  ZPasskey,
  ZRecoveryCodes,
  ZSession,
  ZTotpSetupResult,
  ZWebauthnOptions,
  type TMfaStatus,
  type TSession,
} from '@titan/contracts';
import { z } from 'zod';

import { protectedClient } from '../../../lib/protected-client';

export const MFA_STATUS_PATH = '/api/auth/2fa/';
export const SESSIONS_PATH = '/api/auth/sessions/';

export function mfaStatusQueryOptions() {
  return queryOptions({
    queryKey: ['security', 'mfa'],
    queryFn: async (): Promise<TMfaStatus> =>
      ZEnvelope(ZMfaStatus).parse((await protectedClient.get(MFA_STATUS_PATH)).data).result,
    meta: { errorShownOnScreen: true },
  });
}
export const useMfaStatus = () => useQuery(mfaStatusQueryOptions());

function useInvalidateSecurity() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: ['security'] });
}

export function useTotpSetup() {
  return useMutation({
    mutationFn: async () =>
      ZEnvelope(ZTotpSetupResult).parse((await protectedClient.post('/api/auth/2fa/totp/setup/')).data)
        .result,
  });
}

export function useTotpConfirm() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async (code: string) =>
      ZEnvelope(ZRecoveryCodes).parse(
        (await protectedClient.post('/api/auth/2fa/totp/confirm/', { code })).data,
      ).result,
    onSuccess: invalidate,
  });
}

export function useTotpDisable() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async () => {
      await protectedClient.delete('/api/auth/2fa/totp/');
    },
    onSuccess: invalidate,
  });
}

export function useRegenerateRecoveryCodes() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async () =>
      ZEnvelope(ZRecoveryCodes).parse((await protectedClient.post('/api/auth/2fa/recovery-codes/')).data)
        .result,
    onSuccess: invalidate,
  });
}

/** Asks the browser for a new passkey and registers it. */
export function useAddPasskey() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async (name: string) => {
      const { data } = await protectedClient.post('/api/auth/webauthn/register/options/', { name });
      const { token, options } = ZEnvelope(ZWebauthnOptions).parse(data).result;
      const response = await startRegistration({
        optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
      });
      const verified = await protectedClient.post('/api/auth/webauthn/register/verify/', {
        token,
        response,
        ...(name ? { name } : {}),
      });
      return ZEnvelope(ZPasskey).parse(verified.data).result;
    },
    onSuccess: invalidate,
  });
}

export function useDeletePasskey() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async (id: string) => {
      await protectedClient.delete(`/api/auth/webauthn/credentials/${encodeURIComponent(id)}/`);
    },
    onSuccess: invalidate,
  });
}

export function sessionsQueryOptions() {
  return queryOptions({
    queryKey: ['security', 'sessions'],
    queryFn: async (): Promise<TSession[]> =>
      ZEnvelope(z.array(ZSession)).parse((await protectedClient.get(SESSIONS_PATH)).data).result,
    meta: { errorShownOnScreen: true },
  });
}
export const useSessions = () => useQuery(sessionsQueryOptions());

export function useEndSession() {
  const invalidate = useInvalidateSecurity();
  return useMutation({
    mutationFn: async (id: string) => {
      await protectedClient.delete(`${SESSIONS_PATH}${id}/`);
    },
    onSuccess: invalidate,
  });
}
