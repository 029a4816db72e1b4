// /login: password sign-in, OpenID Connect buttons when a provider is configured, links onwards.
// `?next=` is where to go afterwards; `?email=` prefills the address (e.g. from an invitation).
import { Link, useSearchParams } from 'react-router';

import { authPath, safeNextPath, SIGNUP_PATH } from '../../../config/paths';
import { CenteredCard } from '../../../components/centered-card';
import { LoginForm } from '../components/login-form';
import { OidcButtons } from '../components/oidc-buttons';
import { AUTH_STRINGS } from '../strings';

export function LoginRoute() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const email = params.get('email') ?? '';
  return (
    <CenteredCard title={AUTH_STRINGS.loginTitle} description={AUTH_STRINGS.loginDescription}>
      <LoginForm next={next} defaultEmail={email} />
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
