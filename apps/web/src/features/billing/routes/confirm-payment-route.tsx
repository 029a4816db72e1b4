// /confirm-payment/{payment_status}: where Chargebee's hosted pages return. It says what the
// provider reported, shows the subscription as Titan now knows it (Chargebee's webhook may land a
// moment later, so it looks again for a few seconds), and leads back to Settings → Billing.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';

import { CenteredCard } from '../../../components/centered-card';
import { Button } from '../../../components/ui/button';
import { DASHBOARD_PATH, settingsPath } from '../../../config/paths';
import { chooseBusiness } from '../../../lib/session/current-business';
import { useProfile } from '../../../lib/session/profile';
import { readBusinessCode } from '../../../lib/session/tokens';
import { useBilling } from '../api/get-billing';
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

function textsFor(outcome: TOutcome, status: string): { title: string; text: string } {
  switch (outcome) {
    case 'success':
      return { title: BILLING_STRINGS.successTitle, text: BILLING_STRINGS.successText };
    case 'cancelled':
      return { title: BILLING_STRINGS.cancelledTitle, text: BILLING_STRINGS.cancelledText };
    case 'failed':
      return { title: BILLING_STRINGS.failedTitle, text: BILLING_STRINGS.failedText };
    case 'unknown':
      return { title: BILLING_STRINGS.unknownTitle(status), text: '' };
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}

const LOOK_AGAIN_MS = 1500;
const LOOKS = 6;

export function ConfirmPaymentRoute() {
  const { payment_status: status = '' } = useParams();
  const outcome = OUTCOMES[status.toLowerCase()] ?? 'unknown';
  const profile = useProfile();
  const business = profile.data ? chooseBusiness(profile.data.businesses, readBusinessCode()) : null;
  const billing = useBilling();
  const queryClient = useQueryClient();
  const enabled = billing.data?.enabled ?? true;

  // After a payment the webhook may still be on its way: the profile and billing are read again.
  useEffect(() => {
    if (outcome !== 'success' || !enabled) return;
    let looks = 0;
    const timer = window.setInterval(() => {
      void queryClient.invalidateQueries();
      if (++looks >= LOOKS) window.clearInterval(timer);
    }, LOOK_AGAIN_MS);
    return () => window.clearInterval(timer);
  }, [outcome, enabled, queryClient]);

  const { title, text } = textsFor(outcome, status);
  const description = billing.data && !billing.data.enabled ? BILLING_STRINGS.notConnected : text;
  // Without billing there is no subscription to report (never "inactive").
  // The status label reads mid-sentence in lower case ("… subscription status is active.").
  const subscription = billing.data?.enabled
    ? BILLING_STRINGS.statuses[billing.data.status].toLowerCase()
    : null;
  return (
    <CenteredCard title={title} description={description}>
      {business && subscription ? (
        <p className="text-sm" data-testid="confirm-payment-status">
          {BILLING_STRINGS.currentStatus(business.name, subscription)}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {billing.data?.enabled ? (
          <Button asChild>
            <Link to={settingsPath('billing')}>{BILLING_STRINGS.goToBilling}</Link>
          </Button>
        ) : null}
        <Button asChild variant={billing.data?.enabled ? 'outline' : 'default'}>
          <Link to={DASHBOARD_PATH}>{BILLING_STRINGS.goToDashboard}</Link>
        </Button>
      </div>
    </CenteredCard>
  );
}
