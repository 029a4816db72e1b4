// /auth/account-confirm-email/{token}: verifies the address as soon as the page opens, then offers
// the login (prefilled, and returning to the page asked for before sign-up).
import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';

import { Spinner } from '../../../components/ui/spinner';
import { Button } from '../../../components/ui/button';
import { authPath, LOGIN_PATH, SIGNUP_PATH } from '../../../config/paths';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useVerifyEmail } from '../api/verify-email';
import { CenteredCard } from '../../../components/centered-card';
import { AUTH_STRINGS } from '../strings';
import { readPendingNext } from '../utils/pending-next';

export function ConfirmEmailRoute() {
  const { token = '' } = useParams();
  const verify = useVerifyEmail();
  const { mutate } = verify;
  // One verification per key, even when effects run twice (StrictMode) or the page re-renders.
  const verifiedKey = useRef<string | null>(null);

  useEffect(() => {
    if (verifiedKey.current === token) return;
    verifiedKey.current = token;
    mutate({ key: token });
  }, [mutate, token]);

  if (verify.isSuccess) {
    return (
      <CenteredCard
        title={AUTH_STRINGS.confirmDoneTitle}
        description={AUTH_STRINGS.confirmDoneText(verify.data.email)}
      >
        <Button asChild>
          <Link to={authPath(LOGIN_PATH, { next: readPendingNext(), email: verify.data.email })}>
            {AUTH_STRINGS.loginLink}
          </Link>
        </Button>
      </CenteredCard>
    );
  }
  if (verify.isError) {
    const message = apiErrorMessage(verify.error);
    return (
      <CenteredCard title={AUTH_STRINGS.confirmFailedTitle} description={AUTH_STRINGS.confirmFailedText}>
        {message ? <p className="text-sm text-muted-foreground">{message}</p> : null}
        <div className="flex gap-3">
          <Button asChild>
            <Link to={LOGIN_PATH}>{AUTH_STRINGS.loginLink}</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to={SIGNUP_PATH}>{AUTH_STRINGS.signupLink}</Link>
          </Button>
        </div>
      </CenteredCard>
    );
  }
  return (
    <CenteredCard title={AUTH_STRINGS.confirmVerifyingTitle}>
      <div className="flex justify-center">
        <Spinner className="size-6 text-muted-foreground" />
      </div>
    </CenteredCard>
  );
}
