// /engage/settings/whatsapp: connect the business's WhatsApp number (or update it), and the webhook
// URL and verify token to register at Meta. Owners and admins only (business.update); others read a
// notice, since the account itself is not theirs to see.
import { InfoIcon } from 'lucide-react';

import { CopyableValue } from '../../../components/copyable-value';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { usePermissions } from '../../../lib/business/roles';
import { useWhatsappAccount } from '../api/get-whatsapp-account';
import { WhatsappAccountForm } from '../components/whatsapp-account-form';
import { WHATSAPP_STRINGS } from '../strings';

const S = WHATSAPP_STRINGS.settings;

function WhatsappAccountSection() {
  const account = useWhatsappAccount();
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
          {/* Connecting and updating validate differently: a new form once the number is connected. */}
          <WhatsappAccountForm key={data ? 'update' : 'connect'} account={data} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{S.webhookTitle}</CardTitle>
          <CardDescription>{data ? S.webhookInstruction : S.webhookPending}</CardDescription>
        </CardHeader>
        {data ? (
          <CardContent className="grid gap-4">
            <p className="text-sm text-muted-foreground">{S.webhookDetails}</p>
            <CopyableValue label={S.webhookUrl} value={data.webhook_url} copyLabel={S.copyUrl} />
            <CopyableValue label={S.verifyToken} value={data.verify_token} copyLabel={S.copyToken} />
          </CardContent>
        ) : null}
      </Card>
    </div>
  );
}

export function WhatsappSettingsRoute() {
  const { can, ready } = usePermissions();
  if (!ready) return <SectionLoading />;
  if (!can('business.update'))
    return (
      <Alert role="note">
        <InfoIcon aria-hidden="true" />
        <AlertDescription>{S.readOnly}</AlertDescription>
      </Alert>
    );
  return <WhatsappAccountSection />;
}
