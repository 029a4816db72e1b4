// /signup: create an account, then wait for the verification mail. The page asked for (`?next=`)
// is remembered for the login that follows verification.
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { authPath, devOutboxPath, LOGIN_PATH, safeNextPath } from '../../../config/paths';
import { CenteredCard } from '../../../components/centered-card';
import { isDevOutboxOn } from '../../../lib/dev-outbox';
import { ResendVerificationButton } from '../components/resend-verification-button';
import { SignupForm } from '../components/signup-form';
import { AUTH_STRINGS } from '../strings';
import { rememberPendingNext } from '../utils/pending-next';

/** In development, where the verification mail can be read: the outbox page on this machine. */
function DevOutboxLink({ email }: { email?: string }) {
  if (!isDevOutboxOn()) return null;
  return (
    <p className="rounded-md border border-dashed p-3 text-center text-sm text-muted-foreground">
      {AUTH_STRINGS.devOutboxNote}{' '}
      <Link to={devOutboxPath(email)} className="text-foreground underline underline-offset-4">
        {AUTH_STRINGS.devOutboxLink}
      </Link>
    </p>
  );
}

export function SignupRoute() {
  const [params] = useSearchParams();
  const next = safeNextPath(params.get('next'));
  const prefilled = params.get('email') ?? '';
  const [signedUpEmail, setSignedUpEmail] = useState<string | null>(null);

  if (signedUpEmail) {
    return (
      <CenteredCard
        title={AUTH_STRINGS.checkInboxTitle}
        description={AUTH_STRINGS.checkInboxText(signedUpEmail)}
      >
        <DevOutboxLink email={signedUpEmail} />
        <ResendVerificationButton email={signedUpEmail} />
        <Link
          to={authPath(LOGIN_PATH, { next, email: signedUpEmail })}
          className="text-center text-sm underline underline-offset-4"
        >
          {AUTH_STRINGS.backToLogin}
        </Link>
      </CenteredCard>
    );
  }

  return (
    <CenteredCard title={AUTH_STRINGS.signupTitle} description={AUTH_STRINGS.signupDescription}>
      <SignupForm
        defaultEmail={prefilled}
        onSignedUp={(user) => {
          rememberPendingNext(next);
          setSignedUpEmail(user.email);
        }}
      />
      <p className="text-center text-sm text-muted-foreground">
        {AUTH_STRINGS.haveAccount}{' '}
        <Link
          to={authPath(LOGIN_PATH, { next, email: prefilled })}
          className="text-foreground underline underline-offset-4"
        >
          {AUTH_STRINGS.loginLink}
        </Link>
      </p>
      <DevOutboxLink />
    </CenteredCard>
  );
}
