// /messages/settings/embed/b/{businessSlug}/: the business-wide widget ({businessSlug} is the business
// unique_code): its embed code, allowed origins, identity verification, and each group's widget.
import { CodeIcon } from 'lucide-react';
import { Link, useParams } from 'react-router';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { businessEmbedPath, groupEmbedPath, settingsPath } from '../../../config/paths';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { useChatGroups } from '../api/get-chat-groups';
import { useWidgetSettings } from '../api/get-widget-settings';
import { CodeBlock } from '../components/code-block';
import { EmbedPage } from '../components/embed-page';
import { FormSection } from '../components/form-section';
import { IdentityVerificationCard } from '../components/identity-verification-card';
import { WidgetOriginsForm } from '../components/widget-origins-form';
import { CHAT_GROUPS_STRINGS, EMBED_STRINGS as S } from '../strings';
import { embedSnippet } from '../utils/snippet';

function GroupWidgets() {
  const groups = useChatGroups();
  return (
    <FormSection title={S.groupsTitle} description={S.groupsText}>
      {groups.isPending ? (
        <SectionLoading />
      ) : groups.isError ? (
        <SectionError error={groups.error} onRetry={() => void groups.refetch()} />
      ) : (
        <div className="grid justify-items-start gap-3">
          {groups.data.length === 0 ? <p className="text-sm text-muted-foreground">{S.noGroups}</p> : null}
          <ul className="grid gap-2">
            {groups.data.map((group) => (
              <li key={group.id} className="flex flex-wrap items-center gap-2">
                <Link
                  to={groupEmbedPath(group.slug)}
                  aria-label={CHAT_GROUPS_STRINGS.embedLabel(group.name)}
                  className="flex items-center gap-2 text-sm hover:underline"
                >
                  <CodeIcon aria-hidden="true" className="size-4" />
                  {group.name}
                </Link>
                <code className="font-mono text-xs text-muted-foreground">{group.slug}</code>
              </li>
            ))}
          </ul>
          <Button asChild variant="outline" size="sm">
            <Link to={settingsPath('chat-groups')}>{S.manageGroups}</Link>
          </Button>
        </div>
      )}
    </FormSection>
  );
}

function BusinessEmbedSettings({ businessCode }: { businessCode: string }) {
  const settings = useWidgetSettings();
  const snippet = embedSnippet({ origin: window.location.origin, businessCode });
  return (
    <div className="grid gap-6">
      <FormSection title={S.snippetTitle} description={S.snippetBusinessText}>
        <CodeBlock code={snippet} label={S.snippetLabel} copyLabel={S.copySnippet} />
      </FormSection>
      {settings.isPending ? (
        <SectionLoading />
      ) : settings.isError ? (
        <SectionError error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        <>
          <FormSection title={CHAT_GROUPS_STRINGS.origins.title}>
            <WidgetOriginsForm settings={settings.data} />
          </FormSection>
          <IdentityVerificationCard settings={settings.data} />
        </>
      )}
      <GroupWidgets />
    </div>
  );
}

export function BusinessEmbedRoute() {
  const { businessSlug } = useParams();
  const membership = useCurrentMembership();
  const current = membership?.unique_code ?? null;
  return (
    <EmbedPage title={S.businessTitle} description={S.businessDescription}>
      {current === null ? (
        <SectionLoading />
      ) : businessSlug !== current ? (
        // The API answers for the current business only (X-Business-Code).
        <div role="alert" className="grid justify-items-start gap-2 text-sm">
          <p>{S.otherBusiness}</p>
          <Button asChild variant="outline" size="sm">
            <Link to={businessEmbedPath(current)}>{S.openCurrent}</Link>
          </Button>
        </div>
      ) : (
        <BusinessEmbedSettings businessCode={current} />
      )}
    </EmbedPage>
  );
}
