// /engage/settings/ai-model: which model the AI features use, the business's own model (owners and
// admins change it; others read a notice), a connection test, and the last 30 days' usage.
import { InfoIcon } from 'lucide-react';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { Alert, AlertDescription } from '../../../components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { usePermissions } from '../../../lib/business/roles';
import { useLlmSettings } from '../../../lib/llm-settings';
import { LlmSettingsForm } from '../components/llm-settings-form';
import { LLM_STRINGS as S } from '../strings';

export function LlmSettingsRoute() {
  const settings = useLlmSettings();
  const { can, ready } = usePermissions();
  if (settings.isPending || !ready) return <SectionLoading />;
  if (settings.isError)
    return (
      <SectionError error={settings.error} onRetry={() => void settings.refetch()} fallback={S.loadFailed} />
    );
  const data = settings.data;
  const inUse = data.source === 'none' ? S.inUse.none : S.inUse[data.source](data.effective_model ?? '');
  const usage = data.usage_30d;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.title}</CardTitle>
        <CardDescription>{S.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <p data-testid="llm-in-use" className="text-sm">
          {inUse}
        </p>
        {usage.calls > 0 ? (
          <p className="text-sm text-muted-foreground">
            {S.usage(usage.calls, usage.prompt_tokens + usage.completion_tokens)}
          </p>
        ) : null}
        {can('business.update') ? (
          <LlmSettingsForm key={data.updated_at ?? 'none'} settings={data} />
        ) : (
          <Alert role="note">
            <InfoIcon aria-hidden="true" />
            <AlertDescription>{S.readOnly}</AlertDescription>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
