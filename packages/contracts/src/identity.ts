// Accounts and sessions (api.md "Identity").
import { z } from 'zod';
import { ZMembershipSummary } from './business';

export const PASSWORD_MIN_LENGTH = 8;

const email = z
  .email()
  .max(254)
  .transform((v) => v.trim().toLowerCase());
const password = z.string().min(PASSWORD_MIN_LENGTH).max(128);
const name = z.string().trim().max(150);

export const ZUser = z.object({
  pk: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  is_email_verified: z.boolean(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZRegisterRequest = z.object({
  first_name: name.min(1),
  last_name: name.optional().default(''),
  email,
  password,
});
export type TRegisterRequest = z.input<typeof ZRegisterRequest>;

export const ZVerifyEmailRequest = z.object({ key: z.string().min(1).max(200) });
export type TVerifyEmailRequest = z.infer<typeof ZVerifyEmailRequest>;

export const ZResendVerificationRequest = z.object({ email });
export type TResendVerificationRequest = z.input<typeof ZResendVerificationRequest>;

export const ZLoginRequest = z.object({ email, password: z.string().min(1).max(128) });
export type TLoginRequest = z.input<typeof ZLoginRequest>;

export const ZTokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TTokenPair = z.infer<typeof ZTokenPair>;

export const ZLoginResult = ZTokenPair.extend({ user: ZUser });
export type TLoginResult = z.infer<typeof ZLoginResult>;

export const ZRefreshRequest = z.object({ refresh: z.string().min(1).max(500) });
export type TRefreshRequest = z.infer<typeof ZRefreshRequest>;

export const ZLogoutRequest = ZRefreshRequest;
export type TLogoutRequest = TRefreshRequest;

export const ZForgotPasswordRequest = z.object({ email });
export type TForgotPasswordRequest = z.input<typeof ZForgotPasswordRequest>;

export const PASSWORD_CHANGE_ERRORS = {
  mismatch: 'The two passwords do not match.',
  wrongCurrent: 'Your current password is not correct.',
  same: 'Choose a password different from the current one.',
  changed: 'Password changed. You stay signed in here; your other sessions were signed out.',
} as const;

/** `POST /api/auth/password/change/`: a signed-in member changes their password. */
export const ZChangePasswordRequest = z
  .object({
    current_password: z.string().min(1).max(128),
    new_password: password,
    new_password_confirm: z.string().max(128),
  })
  .superRefine((v, ctx) => {
    if (v.new_password !== v.new_password_confirm)
      ctx.addIssue({
        code: 'custom',
        path: ['new_password_confirm'],
        message: PASSWORD_CHANGE_ERRORS.mismatch,
      });
    else if (v.new_password === v.current_password)
      ctx.addIssue({ code: 'custom', path: ['new_password'], message: PASSWORD_CHANGE_ERRORS.same });
  });
export type TChangePasswordRequest = z.input<typeof ZChangePasswordRequest>;

export const ZResetPasswordRequest = z.object({ email, key: z.string().min(1).max(200), password });
export type TResetPasswordRequest = z.input<typeof ZResetPasswordRequest>;

export const ZOAuthLoginRequest = z.object({
  provider: z.string().min(1).max(50),
  code: z.string().min(1).max(2000),
  redirect_uri: z.url(),
  code_verifier: z.string().min(43).max(128),
  state: z.string().max(500).optional(),
});
export type TOAuthLoginRequest = z.infer<typeof ZOAuthLoginRequest>;

/** What the sign-in screen needs to start an OpenID Connect flow. */
export const ZOAuthProvider = z.object({
  id: z.string(),
  label: z.string(),
  authorization_endpoint: z.url(),
  client_id: z.string(),
  scope: z.string(),
});
export type TOAuthProvider = z.infer<typeof ZOAuthProvider>;

export const ZUpdateProfileRequest = z.object({ first_name: name.min(1), last_name: name });
export type TUpdateProfileRequest = z.infer<typeof ZUpdateProfileRequest>;

/** The access token's claims; `exp` is seconds since the epoch (spec section 3, Session). */
export const ZAccessClaims = z.object({
  sub: z.string(),
  exp: z.number().int(),
  iat: z.number().int(),
  typ: z.literal('access'),
});
export type TAccessClaims = z.infer<typeof ZAccessClaims>;

/** GET/PUT /api/users/profile/: the user and the businesses they belong to. */
export const ZProfile = ZUser.extend({ businesses: z.array(ZMembershipSummary) });
export type TProfile = z.infer<typeof ZProfile>;
