// /engage/settings/sms: connect the business's Twilio account (or update it), send a test text, and
// the webhook URLs to paste into Twilio. Owners and admins only (business.update); others read a
// notice, since the account itself is not theirs to see.
import { InfoIcon } from 'lucide-react';

import { CopyableValue } from '../../../components/copyable-value';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { usePermissions } from '../../../lib/business/roles';
import { useSmsAccount } from '../api/get-sms-account';
import { SmsAccountForm } from '../components/sms-account-form';
import { SmsTestForm } from '../components/sms-test-form';
import { SMS_STRINGS } from '../strings';

const S = SMS_STRINGS.settings;
const W = SMS_STRINGS.webhooks;

function SmsAccountSection() {
  const account = useSmsAccount();
  if (account.isPending) return <SectionLoading />;
  if (account.isError)
    return (
      <SectionError error={account.error} onRetry={() => void account.refetch()} fallback={S.loadFailed} />
    );
  const data = account.data;
  return (
    <div className="grid gap-6">
      <Card>
        <CardHeader>
          <CardTitle>{S.title}</CardTitle>
          <CardDescription>{data ? S.description : `${S.notConnected} ${S.description}`}</CardDescription>
        </CardHeader>
        <CardContent>
          {/* Connecting and updating differ (the Auth Token is required once): a new form once connected. */}
          <SmsAccountForm key={data ? 'update' : 'connect'} account={data} />
        </CardContent>
      </Card>
      {data ? (
        <Card>
          <CardHeader>
            <CardTitle>{SMS_STRINGS.test.title}</CardTitle>
            <CardDescription>{SMS_STRINGS.test.description}</CardDescription>
          </CardHeader>
          <CardContent>
            <SmsTestForm />
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>{W.title}</CardTitle>
          <CardDescription>{data ? W.instruction : W.pending}</CardDescription>
        </CardHeader>
        {data ? (
          <CardContent className="grid gap-4">
            <CopyableValue label={W.inbound} value={data.inbound_url} copyLabel={W.copyInbound} />
            <CopyableValue label={W.status} value={data.status_callback_url} copyLabel={W.copyStatus} />
          </CardContent>
        ) : null}
      </Card>
    </div>
  );
}

export function SmsSettingsRoute() {
  const { can, ready } = usePermissions();
  if (!ready) return <SectionLoading />;
  if (!can('business.update'))
    return (
      <Alert role="note">
        <InfoIcon aria-hidden="true" />
        <AlertDescription>{S.readOnly}</AlertDescription>
      </Alert>
    );
  return <SmsAccountSection />;
}
