// /engage/directory/import: the CSV import wizard. A file is dropped or chosen and its first rows
// read in the browser (refused at once when it cannot be read, is empty or is not CSV); its columns
// are matched from their names and can be changed; the mode and a list are picked, and what consent
// the rows carry (with its proof) is asked; then the upload
// starts the import, whose progress is followed live (?id= keeps it across a reload).
import type { TCustomerImport, TImportColumnTarget, TImportMode } from '@titan/contracts';
import { autoImportTarget } from '@titan/contracts';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { AudienceNav } from '../../../components/audience-nav';
import { FormAlert } from '../../../components/form/form-alert';
import { SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { describeApiFailure, apiErrorMessage } from '../../../lib/api-errors';
import { usePermissions } from '../../../lib/business/roles';
import { useCurrentMembership } from '../../../lib/session/current-business';
import { readBusinessCode } from '../../../lib/session/tokens';
import { useStartImport } from '../api/start-import';
import { ColumnMapping, ImportOptions, ImportPreview } from '../components/column-mapping';
import { ConsentQuestion } from '../components/consent-question';
import { FileDrop } from '../components/file-drop';
import { ImportProgress } from '../components/import-progress';
import { IMPORT_STRINGS as S } from '../strings';
import { columnMap, hasContactColumn } from '../utils/column-map';
import { consentChoice, type TConsentDraft } from '../utils/consent-choice';
import { FileReadingError, readCsvPreview, type TCsvPreview } from '../utils/read-csv-preview';
import { PageLayout } from '../../../components/layout/page-layout';

type TChosen = { file: File; preview: TCsvPreview };

/** The server's field messages for a refused upload, in one list. */
function uploadErrors(error: unknown): string[] {
  const failure = describeApiFailure(error);
  const fields = failure.kind === 'response' ? failure.fieldErrors : null;
  const messages = fields ? Object.values(fields).flat() : [];
  return messages.length ? messages : [apiErrorMessage(error, S.startFailed)];
}

export function ImportRoute() {
  const [params, setParams] = useSearchParams();
  const importId = params.get('id');
  const membership = useCurrentMembership();
  const businessCode = membership?.unique_code ?? readBusinessCode();
  const permissions = usePermissions();
  const canWrite = permissions.can('engage.write');
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<TChosen | null>(null);
  const [targets, setTargets] = useState<TImportColumnTarget[]>([]);
  const [mode, setMode] = useState<TImportMode>('skip');
  const [listId, setListId] = useState<number | null>(null);
  const [consent, setConsent] = useState<TConsentDraft>(null);
  const [doubleOptIn, setDoubleOptIn] = useState(false);
  const [started, setStarted] = useState<TCustomerImport | undefined>();
  const start = useStartImport();

  const choose = async (file: File) => {
    setReading(true);
    setReadError(null);
    start.reset();
    try {
      const preview = await readCsvPreview(file);
      setChosen({ file, preview });
      setTargets(preview.columns.map((column) => (column ? autoImportTarget(column) : 'ignore')));
    } catch (error) {
      setChosen(null);
      setReadError(error instanceof FileReadingError ? error.message : S.startFailed);
    } finally {
      setReading(false);
    }
  };

  const reset = () => {
    setChosen(null);
    setConsent(null);
    setDoubleOptIn(false);
    setReadError(null);
    setStarted(undefined);
    start.reset();
    setParams({});
  };

  const submit = () => {
    const asked = consentChoice(consent);
    if (!chosen || !('choice' in asked)) return;
    start.mutate(
      {
        file: chosen.file,
        mode,
        listId,
        columnMap: columnMap(chosen.preview.columns, targets),
        delimiter: chosen.preview.delimiter,
        consent: asked.choice,
        doubleOptIn,
      },
      {
        onSuccess: (created) => {
          setStarted(created);
          setParams({ id: created.id });
        },
      },
    );
  };

  const content = () => {
    if (importId)
      return (
        <ImportProgress
          key={importId}
          importId={importId}
          businessCode={businessCode}
          initial={started?.id === importId ? started : undefined}
          onAnother={reset}
        />
      );
    if (!permissions.ready) return <SectionLoading />;
    if (!canWrite) return <FormAlert message={S.readOnly} />;
    if (!chosen)
      return (
        <div className="grid gap-3">
          <FormAlert message={readError ?? undefined} />
          <FileDrop onFile={(file) => void choose(file)} busy={reading} />
        </div>
      );
    const contact = hasContactColumn(targets);
    const asked = consentChoice(consent);
    return (
      <div className="grid gap-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-sm">
            <span className="font-medium">{chosen.file.name}</span>{' '}
            <span className="text-muted-foreground">({(chosen.file.size / 1024).toFixed(1)} KB)</span>
          </p>
          <Button type="button" variant="ghost" size="sm" onClick={reset} disabled={start.isPending}>
            {S.otherFile}
          </Button>
        </div>
        <ImportPreview preview={chosen.preview} />
        <ColumnMapping columns={chosen.preview.columns} targets={targets} onChange={setTargets} />
        {contact ? null : <FormAlert message={S.noContactColumn} />}
        <ImportOptions mode={mode} onMode={setMode} listId={listId} onList={setListId} />
        <ConsentQuestion
          value={consent}
          onChange={setConsent}
          doubleOptIn={doubleOptIn}
          onDoubleOptIn={setDoubleOptIn}
        />
        {start.isError ? (
          <FormAlert message={S.startFailed}>
            <ul className="list-disc pl-4">
              {uploadErrors(start.error).map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          </FormAlert>
        ) : null}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" onClick={submit} disabled={!contact || 'problem' in asked || start.isPending}>
            {start.isPending ? S.starting : S.start}
          </Button>
          {'problem' in asked ? <p className="text-sm text-muted-foreground">{asked.problem}</p> : null}
        </div>
      </div>
    );
  };

  return (
    <PageLayout>
      <AudienceNav />
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight break-words">{S.title}</h1>
        <p className="text-sm text-muted-foreground">{S.description}</p>
      </div>
      {content()}
    </PageLayout>
  );
}
