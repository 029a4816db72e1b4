// Two-factor sign-in, passkeys and sessions (next-api.md "Platform").
import { z } from 'zod';
import { ZLoginResult } from './identity';

export const RECOVERY_CODE_COUNT = 10;

/** The 403 `result.code` of every route a session must not reach before its user enrols in 2FA. */
export const MFA_ENROLMENT_REQUIRED = 'mfa_enrolment_required';

export const MFA_ERRORS = {
  enrolmentRequired:
    'Your business requires two-factor authentication. Set up an authenticator app or a passkey to continue.',
  badCode: 'This code is not valid. Enter the current 6-digit code from your authenticator app.',
  badRecoveryCode: 'This recovery code is not valid or has been used.',
  badMfaToken: 'This sign-in has expired. Please log in again.',
  noPendingSetup: 'Start the set-up again: no authenticator app is waiting to be confirmed.',
  alreadyEnabled: 'Two-factor authentication with an authenticator app is already on.',
  notEnabled: 'Two-factor authentication with an authenticator app is not on.',
  passkeyFailed: 'The passkey could not be verified. Try again.',
  codeOrRecovery: 'Enter a code or a recovery code.',
  requiredByBusiness:
    'Your business requires two-factor authentication: add another method before removing this one.',
  ownersOnly: 'Only owners can require two-factor authentication.',
} as const;

/** Login answers tokens, or (the account has a second factor) the token of the second step. */
export const ZMfaRequired = z.object({ mfa_required: z.literal(true), mfa_token: z.string() });
export type TMfaRequired = z.infer<typeof ZMfaRequired>;
export const ZLoginAnswer = z.union([ZLoginResult, ZMfaRequired]);
export type TLoginAnswer = z.infer<typeof ZLoginAnswer>;

const totpCode = z
  .string()
  .trim()
  .regex(/^[0-9]{6}$/, { message: MFA_ERRORS.badCode });

export const ZTotpSetupResult = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TTotpSetupResult = z.infer<typeof ZTotpSetupResult>;
export const ZTotpConfirmRequest = z.object({ code: totpCode });
export const ZRecoveryCodes = z.object({ recovery_codes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;

export const ZMfaLoginRequest = z
  .object({
    mfa_token: z.string().min(1).max(200),
    code: totpCode.optional(),
    recovery_code: z.string().trim().min(1).max(64).optional(),
  })
  .refine((v) => v.code !== undefined || v.recovery_code !== undefined, {
    message: MFA_ERRORS.codeOrRecovery,
    path: ['code'],
  });
export type TMfaLoginRequest = z.input<typeof ZMfaLoginRequest>;

/** What the signed-in user has set up. */
export const ZPasskey = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type TPasskey = z.infer<typeof ZPasskey>;
export const ZMfaStatus = z.object({
  totp_enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
  passkeys: z.array(ZPasskey),
  enrolment_required: z.boolean(),
});
export type TMfaStatus = z.infer<typeof ZMfaStatus>;

// WebAuthn: options and responses are the JSON of @simplewebauthn (WebAuthn Level 3 JSON forms).
const webauthnJson = z.record(z.string(), z.unknown());
export const ZWebauthnRegisterOptionsRequest = z.object({ name: z.string().trim().max(100).optional() });
export const ZWebauthnOptions = z.object({ token: z.string(), options: webauthnJson });
export type TWebauthnOptions = z.infer<typeof ZWebauthnOptions>;
export const ZWebauthnRegisterVerifyRequest = z.object({
  token: z.string().min(1).max(200),
  response: webauthnJson,
  name: z.string().trim().max(100).optional(),
});
/** Without `mfa_token`: a password-less sign-in; with it: the second step of a password sign-in. */
export const ZWebauthnAuthenticateOptionsRequest = z.object({
  mfa_token: z.string().min(1).max(200).optional(),
});
export const ZWebauthnAuthenticateVerifyRequest = z.object({
  token: z.string().min(1).max(200),
  response: webauthnJson,
  mfa_token: z.string().min(1).max(200).optional(),
});

export const ZSession = z.object({
  id: z.string(),
  browser: z.string(),
  os: z.string(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
  last_seen: z.string(),
  current: z.boolean(),
});
export type TSession = z.infer<typeof ZSession>;
/** Owners may list and end a member's sessions: `?user=<pk>`. */
export const ZSessionsQuery = z.strictObject({ user: z.coerce.number().int().positive().optional() });
