// /two-factor-setup: a member of a business that requires two-factor authentication, signed in
// without it, sets up an authenticator app or a passkey here before reaching anything else.
import { useNavigate } from 'react-router';

import { Button } from '../../../components/ui/button';
import { DASHBOARD_PATH } from '../../../config/paths';
import { useMfaStatus } from '../api/get-mfa-status';
import { PasskeysCard, TwoFactorCard } from '../components/two-factor-cards';
import { SETTINGS_STRINGS } from '../strings';

const STRINGS = SETTINGS_STRINGS.security;

export function TwoFactorSetupRoute() {
  const status = useMfaStatus();
  const navigate = useNavigate();
  const done = status.data ? !status.data.enrolment_required : false;
  return (
    <main className="mx-auto flex w-full max-w-2xl flex-col gap-6 p-4 md:p-6">
      <div className="grid gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">{STRINGS.enrolTitle}</h1>
        <p className="text-sm text-muted-foreground">{STRINGS.enrolText}</p>
      </div>
      <TwoFactorCard />
      <PasskeysCard />
      <div>
        <Button
          type="button"
          disabled={!done}
          onClick={() => void navigate(DASHBOARD_PATH, { replace: true })}
        >
          {STRINGS.continue}
        </Button>
      </div>
    </main>
  );
}
