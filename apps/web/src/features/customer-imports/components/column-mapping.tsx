// Step 2 of the import: the file's first rows, what each column becomes (matched from its name,
// editable), what happens to customers already in the directory, and an optional list to fill.
import {
  IMPORT_COLUMN_ALIASES,
  IMPORT_MODES,
  SEGMENT_FIELD_KEY_PATTERN,
  type TImportColumnTarget,
  type TImportContactPart,
  type TImportMode,
} from '@titan/contracts';

import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../components/ui/table';
import { useCustomerListChoices } from '../../../lib/customer-lists';
import { IMPORT_STRINGS as S } from '../strings';
import type { TCsvPreview } from '../utils/read-csv-preview';

const CONTACT_PARTS = Object.keys(IMPORT_COLUMN_ALIASES) as TImportContactPart[];

export function ImportPreview({ preview }: { preview: TCsvPreview }) {
  return (
    <section className="grid gap-2">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">{S.previewTitle}</h2>
        <p className="text-sm text-muted-foreground">{S.delimiter(preview.delimiter)}</p>
      </div>
      {preview.rows.length ? (
        <>
          <p className="text-sm text-muted-foreground">{S.previewDescription(preview.rows.length)}</p>
          <div className="overflow-x-auto rounded-md border">
            <Table aria-label={S.previewTable}>
              <TableHeader>
                <TableRow>
                  {preview.columns.map((column, i) => (
                    <TableHead key={i}>{column}</TableHead>
                  ))}
                </TableRow>
              </TableHeader>
              <TableBody>
                {preview.rows.map((row, r) => (
                  <TableRow key={r}>
                    {preview.columns.map((_, i) => (
                      <TableCell key={i} className="max-w-48 truncate">
                        {row[i] ?? ''}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">{S.noRows}</p>
      )}
    </section>
  );
}

export function ColumnMapping({
  columns,
  targets,
  onChange,
}: {
  columns: string[];
  targets: TImportColumnTarget[];
  onChange: (targets: TImportColumnTarget[]) => void;
}) {
  return (
    <section className="grid gap-3">
      <div className="grid gap-1">
        <h2 className="text-lg font-semibold">{S.mappingTitle}</h2>
        <p className="text-sm text-muted-foreground">{S.mappingDescription}</p>
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        {columns.map((column, i) =>
          column ? (
            <div key={i} className="grid gap-1.5">
              <Label htmlFor={`import-column-${i}`}>{S.mapColumn(column)}</Label>
              <NativeSelect
                id={`import-column-${i}`}
                value={targets[i] ?? 'ignore'}
                onChange={(event) =>
                  onChange(targets.map((t, j) => (j === i ? (event.target.value as TImportColumnTarget) : t)))
                }
              >
                {CONTACT_PARTS.map((part) => (
                  <option key={part} value={part}>
                    {S.targets[part]}
                  </option>
                ))}
                {SEGMENT_FIELD_KEY_PATTERN.test(column) ? (
                  <option value={`field:${column}`}>{S.targets.field(column)}</option>
                ) : null}
                <option value="ignore">{S.targets.ignore}</option>
              </NativeSelect>
            </div>
          ) : null,
        )}
      </div>
    </section>
  );
}

export function ImportOptions({
  mode,
  onMode,
  listId,
  onList,
}: {
  mode: TImportMode;
  onMode: (mode: TImportMode) => void;
  listId: number | null;
  onList: (id: number | null) => void;
}) {
  const lists = useCustomerListChoices('static');
  return (
    <section className="grid gap-4">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-lg font-semibold">{S.modeTitle}</legend>
        {IMPORT_MODES.map((value) => (
          <label key={value} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="import-mode"
              value={value}
              checked={mode === value}
              onChange={() => onMode(value)}
              className="mt-1"
            />
            <span>
              <span className="font-medium">{S.modes[value].label}</span>
              <span className="block text-muted-foreground">{S.modes[value].hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <div className="grid max-w-sm gap-1.5">
        <Label htmlFor="import-list">{S.listLabel}</Label>
        <NativeSelect
          id="import-list"
          value={listId === null ? '' : String(listId)}
          onChange={(event) => onList(event.target.value ? Number(event.target.value) : null)}
        >
          <option value="">{S.noList}</option>
          {(lists.data ?? []).map((list) => (
            <option key={list.id} value={list.id}>
              {list.name}
            </option>
          ))}
        </NativeSelect>
        <p className="text-xs text-muted-foreground">{S.listHint}</p>
      </div>
    </section>
  );
}
