// Step 3 of the import: a progress bar moved by each committed batch (live over the realtime
// socket, polled while it is down), then the counts and the skipped and failed rows as a CSV.
import type { TCustomerImport } from '@titan/contracts';
import { DownloadIcon, RadioIcon } from 'lucide-react';
import { Link } from 'react-router';

import { FormAlert } from '../../../components/form/form-alert';
import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { DIRECTORY_PATH } from '../../../config/paths';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useDownloadImportErrors } from '../api/download-import-errors';
import { isFinished, useImportProgress } from '../hooks/use-import-progress';
import { IMPORT_STRINGS as S } from '../strings';

function percent(imp: TCustomerImport): number {
  if (imp.status === 'done') return 100;
  if (!imp.total_rows) return 0;
  return Math.min(100, Math.floor((imp.processed_rows / imp.total_rows) * 100));
}

export function ImportProgress({
  importId,
  businessCode,
  initial,
  onAnother,
}: {
  importId: string;
  businessCode: string | null;
  initial?: TCustomerImport;
  onAnother: () => void;
}) {
  const progress = useImportProgress(importId, businessCode, initial);
  const download = useDownloadImportErrors();

  if (progress.isPending) return <SectionLoading />;
  if (progress.isError && !progress.data)
    return (
      <SectionError error={progress.error} onRetry={() => void progress.refetch()} fallback={S.loadFailed} />
    );
  const imp = progress.data;
  const value = percent(imp);
  const finished = isFinished(imp);

  return (
    <section className="grid gap-4" aria-live="polite">
      <div className="grid gap-2">
        <div className="flex items-center justify-between gap-2 text-sm">
          <span>{imp.status === 'queued' ? S.queued : S.running(imp.processed_rows, imp.total_rows)}</span>
          {finished ? null : (
            <span className="flex items-center gap-1 text-xs text-muted-foreground">
              {progress.live ? <RadioIcon aria-hidden="true" className="size-3" /> : null}
              {progress.live ? S.live : S.polling}
            </span>
          )}
        </div>
        <div
          role="progressbar"
          aria-label={S.progressLabel}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
          aria-valuetext={`${value}%`}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div
            className="h-full rounded-full bg-primary transition-[width] duration-300"
            style={{ width: `${value}%` }}
          />
        </div>
      </div>
      {finished ? (
        <div className="grid gap-4">
          <h2 className="text-lg font-semibold">{imp.status === 'done' ? S.doneTitle : S.failedTitle}</h2>
          <FormAlert message={imp.error ?? undefined} />
          <p className="text-sm text-muted-foreground">
            {S.delimiter(imp.delimiter)} · {S.consentResult(imp.consent, imp.consent_channels)}
          </p>
          <dl aria-label={S.countsLabel} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {(['inserted', 'updated', 'skipped', 'failed'] as const).map((key) => (
              <div key={key} className="rounded-md border p-3">
                <dt className="text-xs text-muted-foreground">{S.counts[key]}</dt>
                <dd className="text-2xl font-semibold tabular-nums">{imp[key].toLocaleString('en-US')}</dd>
              </div>
            ))}
          </dl>
          <FormAlert
            message={download.isError ? apiErrorMessage(download.error, S.downloadFailed) : undefined}
          />
          <div className="flex flex-wrap gap-2">
            {imp.errors_url ? (
              <Button
                type="button"
                variant="outline"
                disabled={download.isPending}
                onClick={() => download.mutate(imp)}
              >
                <DownloadIcon aria-hidden="true" />
                {download.isPending ? S.downloading : S.downloadErrors}
              </Button>
            ) : null}
            <Button asChild>
              <Link to={DIRECTORY_PATH}>{S.viewDirectory}</Link>
            </Button>
            <Button type="button" variant="ghost" onClick={onAnother}>
              {S.importAnother}
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}
