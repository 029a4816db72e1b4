// /invite-user/join/{details}: shows who invited whom to which business and role. Signed out → log in
// or sign up with the invited email prefilled, coming back here; signed in with another email → says
// so; accepting opens the dashboard in that business.
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';

import { CenteredCard } from '../../../components/centered-card';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { authPath, invitationPath, LOGIN_PATH, SIGNUP_PATH } from '../../../config/paths';
import { apiErrorMessage, apiErrorStatus } from '../../../lib/api-errors';
import { formatDate } from '../../../lib/format';
import { profileQueryOptions } from '../../../lib/session/profile';
import { hasSession } from '../../../lib/session/tokens';
import { useAssignToBusiness } from '../api/assign-to-business';
import { useInvitation } from '../api/get-invitation';
import { LogOutButton } from '../components/log-out-button';
import { ONBOARDING_STRINGS, ROLE_LABELS } from '../strings';
import { useEnterBusiness } from '../utils/use-enter-business';

const NOT_FOUND = 404;
const BAD_REQUEST = 400;

function Loading() {
  return (
    <CenteredCard title={ONBOARDING_STRINGS.invitationLoading}>
      <div className="flex justify-center">
        <Spinner className="size-6 text-muted-foreground" />
      </div>
    </CenteredCard>
  );
}

export function InvitationRoute() {
  const { details: token = '' } = useParams();
  const invitation = useInvitation(token);
  const signedIn = hasSession();
  const profile = useQuery({ ...profileQueryOptions(), enabled: signedIn });
  const accept = useAssignToBusiness();
  const enterBusiness = useEnterBusiness();

  if (invitation.isPending || (signedIn && profile.isPending)) return <Loading />;
  if (invitation.isError) {
    const status = apiErrorStatus(invitation.error);
    const gone = status === NOT_FOUND || status === BAD_REQUEST;
    return (
      <CenteredCard
        title={ONBOARDING_STRINGS.invitationInvalidTitle}
        description={gone ? ONBOARDING_STRINGS.invitationInvalidText : apiErrorMessage(invitation.error)}
      />
    );
  }

  const { business, email, role, role_label, expires_at } = invitation.data;
  // A custom role is named by the server; a built-in one by its label here.
  const roleName = role_label ?? (typeof role === 'string' ? ROLE_LABELS[role] : String(role));
  const here = invitationPath(token);
  const description = (
    <>
      {ONBOARDING_STRINGS.invitationText(email, roleName)}{' '}
      {ONBOARDING_STRINGS.invitationExpires(formatDate(expires_at))}
    </>
  );

  let body;
  if (!signedIn || !profile.data) {
    body = (
      <>
        <p className="text-sm text-muted-foreground">{ONBOARDING_STRINGS.signedOutHint}</p>
        <Button asChild>
          <Link to={authPath(LOGIN_PATH, { next: here, email })}>{ONBOARDING_STRINGS.signInToAccept}</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to={authPath(SIGNUP_PATH, { next: here, email })}>{ONBOARDING_STRINGS.signUpToAccept}</Link>
        </Button>
      </>
    );
  } else if (profile.data.email.toLowerCase() !== email.toLowerCase()) {
    body = (
      <>
        <FormAlert message={ONBOARDING_STRINGS.wrongAccount(profile.data.email, email)} />
        <LogOutButton />
      </>
    );
  } else {
    body = (
      <>
        <FormAlert message={accept.isError ? apiErrorMessage(accept.error) : undefined} />
        <Button
          disabled={accept.isPending}
          onClick={() =>
            accept.mutate({ token }, { onSuccess: (result) => enterBusiness(result.business.unique_code) })
          }
        >
          {accept.isPending ? ONBOARDING_STRINGS.accepting : ONBOARDING_STRINGS.accept}
        </Button>
      </>
    );
  }

  return (
    <CenteredCard title={ONBOARDING_STRINGS.invitationTitle(business.name)} description={description}>
      {body}
    </CenteredCard>
  );
}
