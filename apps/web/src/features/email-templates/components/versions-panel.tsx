// The saved versions of a template, newest first; an older one can be restored (saved again as a
// new version, so the history never changes).
import { HistoryIcon } from 'lucide-react';

import { ConfirmAction } from '../../../components/confirm-action';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { formatDateTime } from '../../../lib/format';
import { useEmailTemplateVersions } from '../api/get-email-template-versions';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';

export function VersionsPanel({
  templateId,
  currentVersion,
  canRestore,
  restoring,
  onRestore,
}: {
  templateId: number | null;
  currentVersion: number | null;
  canRestore: boolean;
  restoring: boolean;
  onRestore: (version: number) => void;
}) {
  const versions = useEmailTemplateVersions(templateId);
  const body = () => {
    if (templateId === null) return <p className="text-sm text-muted-foreground">{S.noVersions}</p>;
    if (versions.isPending) return <SectionLoading />;
    if (versions.isError)
      return <SectionError error={versions.error} onRetry={() => void versions.refetch()} />;
    return (
      <ol aria-label={S.versionsTitle} className="grid gap-1">
        {versions.data.map((v) => (
          <li key={v.version} className="flex items-center justify-between gap-2 text-sm">
            <span>
              <span className="font-medium">{S.versionLabel(v.version)}</span>{' '}
              <span className="text-muted-foreground">{formatDateTime(v.created_at)}</span>
              {v.version === currentVersion ? (
                <span className="ml-2 rounded bg-muted px-1.5 py-0.5 text-xs">{S.current}</span>
              ) : null}
            </span>
            {canRestore && v.version !== currentVersion ? (
              <ConfirmAction
                trigger={
                  <>
                    <HistoryIcon aria-hidden="true" />
                    {S.restore}
                  </>
                }
                triggerLabel={`${S.restore} ${S.versionLabel(v.version)}`}
                title={S.restoreTitle(v.version)}
                description={S.restoreText}
                confirmLabel={S.restore}
                disabled={restoring}
                onConfirm={() => onRestore(v.version)}
              />
            ) : null}
          </li>
        ))}
      </ol>
    );
  };
  return (
    <section aria-label={S.versionsTitle} className="grid gap-2 rounded-md border p-3">
      <h2 className="text-base font-semibold">{S.versionsTitle}</h2>
      {body()}
    </section>
  );
}
