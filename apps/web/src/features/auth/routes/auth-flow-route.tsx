// /auth-flow: where the OpenID Connect provider returns. Checks the state against the attempt started
// in this tab, exchanges the code (with the PKCE verifier) for a session, then continues like a login.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { authPath, LOGIN_PATH } from '../../../config/paths';
import { apiErrorMessage } from '../../../lib/api-errors';
import { CenteredCard } from '../../../components/centered-card';
import { AUTH_STRINGS } from '../strings';
import { completeOidcSignIn, OidcFlowError } from '../utils/oidc';
import { rememberMfaToken } from '../utils/mfa-token';
import { useStartSession } from '../utils/use-start-session';

export function AuthFlowRoute() {
  const [params] = useSearchParams();
  const startSession = useStartSession();
  const navigate = useNavigate();
  const signIn = useMutation({ mutationFn: completeOidcSignIn });
  const { mutate } = signIn;
  // The code can be exchanged once: StrictMode's second effect run must not try again.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    mutate(params, {
      onSuccess: ({ result, next }) => {
        if ('mfa_required' in result) {
          // The provider's sign-in counted as one factor: the second is asked on the login screen.
          rememberMfaToken(result.mfa_token);
          void navigate(authPath(LOGIN_PATH, { next, mfa: '1' }), { replace: true });
        } else startSession(result, next);
      },
    });
  }, [mutate, navigate, params, startSession]);

  if (signIn.isError) {
    const problem =
      signIn.error instanceof OidcFlowError
        ? signIn.error.message
        : apiErrorMessage(signIn.error) || AUTH_STRINGS.authFlowFailedTitle;
    return (
      <CenteredCard title={AUTH_STRINGS.authFlowFailedTitle} description={problem}>
        <Button asChild>
          <Link to={LOGIN_PATH}>{AUTH_STRINGS.backToLogin}</Link>
        </Button>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard title={AUTH_STRINGS.authFlowWorking}>
      <div className="flex justify-center">
        <Spinner className="size-6 text-muted-foreground" />
      </div>
    </CenteredCard>
  );
}
