// A way out for people who are signed in but not (yet) in a business.
import { Button } from '../../../components/ui/button';
import { logout } from '../../../lib/session/logout';
import { ONBOARDING_STRINGS } from '../strings';

export function LogOutButton() {
  return (
    <Button type="button" variant="ghost" size="sm" onClick={() => void logout('user')}>
      {ONBOARDING_STRINGS.logOut}
    </Button>
  );
}
