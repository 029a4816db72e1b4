// /engage/settings/billing: the plan and its status, usage against the plan's quotas per channel
// this billing period, Chargebee's pricing page and portal, and top-ups (owners: billing.manage;
// others read). Without billing on the server it says nothing is limited.
import type { TBillingState, TSubscriptionStatus } from '@titan/contracts';
import { InfoIcon } from 'lucide-react';
import { toast } from 'sonner';

import { ConfirmAction } from '../../../components/confirm-action';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { StatusBadge, type TStatusTone } from '../../../components/status-badge';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { reportApiError } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useBilling } from '../api/get-billing';
import { useChargeTopUp } from '../api/charge-top-up';
import { useOpenPortal } from '../api/open-portal';
import { useOpenPricingPage } from '../api/open-pricing-page';
import { UsageBars } from '../components/usage-bars';
import { BILLING_STRINGS as S } from '../strings';

const TONE: Record<TSubscriptionStatus, TStatusTone> = {
  inactive: 'neutral',
  in_trial: 'good',
  active: 'good',
  non_renewing: 'waiting',
  paused: 'waiting',
  cancelled: 'bad',
};

const date = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
const money = (cents: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);

function PlanActions({ billing }: { billing: TBillingState }) {
  const pricing = useOpenPricingPage();
  const portal = useOpenPortal();
  const onError = (error: unknown) => reportApiError(error, { toast: true });
  return (
    <div className="flex flex-wrap gap-2">
      <Button disabled={pricing.isPending} onClick={() => pricing.mutate(undefined, { onError })}>
        {pricing.isPending ? S.opening : billing.plan ? S.changePlan : S.choosePlan}
      </Button>
      <Button
        variant="outline"
        disabled={portal.isPending}
        onClick={() => portal.mutate(undefined, { onError })}
      >
        {portal.isPending ? S.opening : S.manage}
      </Button>
    </div>
  );
}

function TopUps({ billing, canBuy }: { billing: TBillingState; canBuy: boolean }) {
  const charge = useChargeTopUp();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.topUpsTitle}</CardTitle>
        <CardDescription>{S.topUpsText}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {billing.top_ups_error ? <p className="text-sm text-destructive">{billing.top_ups_error}</p> : null}
        {billing.top_ups.length === 0 && !billing.top_ups_error ? (
          <p className="text-sm text-muted-foreground">{S.noTopUps}</p>
        ) : null}
        <ul className="grid gap-2">
          {billing.top_ups.map((t) => (
            <li key={t.id} className="flex items-center justify-between gap-2 rounded-md border p-3 text-sm">
              <span>{t.name}</span>
              {canBuy ? (
                <ConfirmAction
                  variant="outline"
                  tone="default"
                  disabled={charge.isPending}
                  trigger={
                    charge.isPending && charge.variables === t.id
                      ? S.buying
                      : S.buy(money(t.price, t.currency_code))
                  }
                  title={S.buyTitle(t.name)}
                  description={S.buyText(t.units, S.channels[t.channel], money(t.price, t.currency_code))}
                  confirmLabel={S.buyConfirm(money(t.price, t.currency_code))}
                  onConfirm={() =>
                    charge.mutate(t.id, {
                      onSuccess: (result) =>
                        result.credited
                          ? toast.success(S.bought(result.units, S.channels[result.channel]))
                          : toast.info(S.pending),
                      onError: (error) => reportApiError(error, { toast: true }),
                    })
                  }
                />
              ) : (
                <span className="text-muted-foreground">{money(t.price, t.currency_code)}</span>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

export function BillingSettingsRoute() {
  const billing = useBilling();
  const { can, ready } = usePermissions();
  if (billing.isPending || !ready) return <SectionLoading />;
  if (billing.isError)
    return (
      <SectionError error={billing.error} onRetry={() => void billing.refetch()} fallback={S.loadFailed} />
    );
  const data = billing.data;
  const owner = can('billing.manage');
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{S.title}</CardTitle>
          <CardDescription>{S.description}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {!data.enabled ? (
            <Alert role="note">
              <InfoIcon aria-hidden="true" />
              <AlertDescription>{S.off}</AlertDescription>
            </Alert>
          ) : (
            <>
              <dl className="grid gap-2 text-sm sm:grid-cols-2">
                <div>
                  <dt className="text-muted-foreground">{S.plan}</dt>
                  <dd className="font-medium" data-testid="billing-plan">
                    {data.plan?.name ?? S.noPlan}
                  </dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">{S.status}</dt>
                  <dd data-testid="billing-status">
                    <StatusBadge tone={TONE[data.status]}>{S.statuses[data.status]}</StatusBadge>
                  </dd>
                </div>
              </dl>
              <p className="text-sm text-muted-foreground">
                {S.period(date(data.period_start), date(data.period_end))}
              </p>
              {!data.can_send ? (
                <Alert variant="destructive">
                  <AlertDescription>{S.cannotSend}</AlertDescription>
                </Alert>
              ) : null}
              {owner ? (
                <PlanActions billing={data} />
              ) : (
                <p className="text-sm text-muted-foreground">{S.ownersOnly}</p>
              )}
            </>
          )}
          <h2 className="mt-2 font-medium">{S.usageTitle}</h2>
          <UsageBars usage={data.usage} />
        </CardContent>
      </Card>
      {data.enabled ? <TopUps billing={data} canBuy={owner} /> : null}
    </div>
  );
}
