// /engage/ai-template (spec section 2): AI email template creation. Without an AI model the screen
// says so plainly and how to set one up (Settings → AI model); roles that cannot create templates
// read a notice.
import { BotOffIcon } from 'lucide-react';
import { Link } from 'react-router';

import { EmptyState } from '../../../components/empty-state';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { settingsPath } from '../../../config/paths';
import { usePermissions } from '../../../lib/business/roles';
import { useLlmSettings } from '../../../lib/llm-settings';
import { AiTemplateGenerator } from '../components/ai-template-generator';
import { EMAIL_TEMPLATE_STRINGS } from '../strings';
import { PageLayout } from '../../../components/layout/page-layout';

const S = EMAIL_TEMPLATE_STRINGS.ai;

function NotConfigured({ canConfigure }: { canConfigure: boolean }) {
  return (
    <EmptyState
      icon={BotOffIcon}
      title={S.notConfiguredTitle}
      text={canConfigure ? S.notConfiguredText : S.notConfiguredAskAdmin}
    >
      {canConfigure ? (
        <Button asChild>
          <Link to={settingsPath('ai-model')}>{S.configure}</Link>
        </Button>
      ) : null}
    </EmptyState>
  );
}

export function AiTemplateRoute() {
  const settings = useLlmSettings();
  const { can, ready } = usePermissions();
  let body: React.ReactNode;
  if (settings.isPending || !ready) body = <SectionLoading />;
  else if (settings.isError)
    body = (
      <SectionError error={settings.error} onRetry={() => void settings.refetch()} fallback={S.loadFailed} />
    );
  else if (!settings.data.configured) body = <NotConfigured canConfigure={can('business.update')} />;
  else if (!can('engage.write')) body = <p className="text-sm text-muted-foreground">{S.readOnly}</p>;
  // A 409 mid-way (the model was removed meanwhile): refetch, and the screen above takes over.
  else body = <AiTemplateGenerator onNotConfigured={() => void settings.refetch()} />;
  return (
    <PageLayout width="wide">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{S.title}</h1>
        <p className="text-sm text-muted-foreground">{S.description}</p>
      </div>
      {body}
    </PageLayout>
  );
}
