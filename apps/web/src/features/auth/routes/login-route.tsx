// /login: password sign-in, OpenID Connect buttons when a provider is configured, links onwards.
// `?next=` is where to go afterwards; `?email=` prefills the address (e.g. from an invitation).
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { authPath, safeNextPath, SIGNUP_PATH } from '../../../config/paths';
import { CenteredCard } from '../../../components/centered-card';
import { LoginForm } from '../components/login-form';
import { MfaStep, PasskeySignInButton } from '../components/mfa-step';
import { takeMfaToken } from '../utils/mfa-token';
import { OidcButtons } from '../components/oidc-buttons';
import { AUTH_STRINGS } from '../strings';

export function LoginRoute() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const email = params.get('email') ?? '';
  // The second step: after the password here, or after an identity provider (?mfa=1).
  const [mfaToken, setMfaToken] = useState<string | null>(() =>
    params.get('mfa') === '1' ? takeMfaToken() : null,
  );
  if (mfaToken) {
    return (
      <CenteredCard title={AUTH_STRINGS.loginTitle} description={AUTH_STRINGS.loginDescription}>
        <MfaStep mfaToken={mfaToken} next={next} />
      </CenteredCard>
    );
  }
  return (
    <CenteredCard title={AUTH_STRINGS.loginTitle} description={AUTH_STRINGS.loginDescription}>
      <LoginForm next={next} defaultEmail={email} onMfaRequired={setMfaToken} />
      <PasskeySignInButton next={next} />
      <OidcButtons next={next} />
      <p className="text-center text-sm text-muted-foreground">
        {AUTH_STRINGS.noAccount}{' '}
        <Link
          to={authPath(SIGNUP_PATH, { next, email })}
          className="text-foreground underline underline-offset-4"
        >
          {AUTH_STRINGS.signupLink}
        </Link>
      </p>
    </CenteredCard>
  );
}
