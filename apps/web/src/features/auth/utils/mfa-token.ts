// The second step of a sign-in begun elsewhere (an identity provider's redirect), kept for this tab.
const KEY = 'titan.mfa_token';

export function rememberMfaToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}

export function takeMfaToken(): string | null {
  const token = sessionStorage.getItem(KEY);
  sessionStorage.removeItem(KEY);
  return token;
}
