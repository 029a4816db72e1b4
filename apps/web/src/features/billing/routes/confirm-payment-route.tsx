// /confirm-payment/{payment_status}: where a payment provider returns. Billing is not built yet, so
// the page says what the provider reported and, honestly, that nothing changed on Titan's side.
import { Link, useParams } from 'react-router';

import { CenteredCard } from '../../../components/centered-card';
import { Button } from '../../../components/ui/button';
import { DASHBOARD_PATH } from '../../../config/paths';
import { chooseBusiness } from '../../../lib/session/current-business';
import { useProfile } from '../../../lib/session/profile';
import { readBusinessCode } from '../../../lib/session/tokens';
import { BILLING_STRINGS } from '../strings';

type TOutcome = 'success' | 'cancelled' | 'failed' | 'unknown';

const OUTCOMES: Record<string, TOutcome> = {
  success: 'success',
  successful: 'success',
  succeeded: 'success',
  paid: 'success',
  cancel: 'cancelled',
  cancelled: 'cancelled',
  canceled: 'cancelled',
  failed: 'failed',
  failure: 'failed',
  error: 'failed',
};

function titleFor(outcome: TOutcome, status: string): string {
  switch (outcome) {
    case 'success':
      return BILLING_STRINGS.successTitle;
    case 'cancelled':
      return BILLING_STRINGS.cancelledTitle;
    case 'failed':
      return BILLING_STRINGS.failedTitle;
    case 'unknown':
      return BILLING_STRINGS.unknownTitle(status);
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

export function ConfirmPaymentRoute() {
  const { payment_status: status = '' } = useParams();
  const outcome = OUTCOMES[status.toLowerCase()] ?? 'unknown';
  const profile = useProfile();
  const business = profile.data ? chooseBusiness(profile.data.businesses, readBusinessCode()) : null;
  return (
    <CenteredCard title={titleFor(outcome, status)} description={BILLING_STRINGS.notConnected}>
      {business ? (
        <p className="text-sm">
          {BILLING_STRINGS.currentStatus(business.name, business.subscription_status)}
        </p>
      ) : null}
      <Button asChild>
        <Link to={DASHBOARD_PATH}>{BILLING_STRINGS.goToDashboard}</Link>
      </Button>
    </CenteredCard>
  );
}
