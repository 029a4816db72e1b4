// Create or edit a list: name, description, and (creating) static or segment; a segment's
// conditions. The shared contract checks before sending; the server's field errors land on fields.
import {
  ZCreateCustomerListRequest,
  type TCustomerList,
  type TCustomerListKind,
  type TSegmentFilter,
} from '@titan/contracts';
import { PlusIcon, XIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';

import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Textarea } from '../../../components/ui/textarea';
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { useCreateList, useUpdateList } from '../api/lists';
import { LISTS_STRINGS } from '../strings';

const S = LISTS_STRINGS.form;

type TTri = '' | 'yes' | 'no';
type TConditions = {
  search: string;
  hasEmail: TTri;
  hasPhone: TTri;
  channel: '' | 'whatsapp' | 'titan_message';
  createdAfter: string;
  createdBefore: string;
  seenAfter: string;
  seenBefore: string;
  fields: { key: string; value: string }[];
};

/** yyyy-mm-dd of an ISO date, in the browser's time zone (what a date input shows). */
const dayOf = (iso: string | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
/** The start or end of a local day as ISO (a condition "on or before" includes the whole day). */
const dayBound = (day: string, end: boolean) =>
  day ? new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`).toISOString() : undefined;
const tri = (v: boolean | undefined): TTri => (v === undefined ? '' : v ? 'yes' : 'no');
const fromTri = (v: TTri) => (v === '' ? undefined : v === 'yes');

function conditionsOf(filter: TSegmentFilter | null | undefined): TConditions {
  return {
    search: filter?.search ?? '',
    hasEmail: tri(filter?.has_email),
    hasPhone: tri(filter?.has_phone),
    channel: filter?.channel ?? '',
    createdAfter: dayOf(filter?.created_at__gte),
    createdBefore: dayOf(filter?.created_at__lte),
    seenAfter: dayOf(filter?.last_seen_at__gte),
    seenBefore: dayOf(filter?.last_seen_at__lte),
    fields: Object.entries(filter?.fields ?? {}).map(([key, value]) => ({ key, value: String(value) })),
  };
}

function filterOf(c: TConditions): TSegmentFilter {
  const fields = Object.fromEntries(c.fields.filter((f) => f.key.trim()).map((f) => [f.key.trim(), f.value]));
  const filter: TSegmentFilter = {
    search: c.search.trim() || undefined,
    has_email: fromTri(c.hasEmail),
    has_phone: fromTri(c.hasPhone),
    channel: c.channel || undefined,
    created_at__gte: dayBound(c.createdAfter, false),
    created_at__lte: dayBound(c.createdBefore, true),
    last_seen_at__gte: dayBound(c.seenAfter, false),
    last_seen_at__lte: dayBound(c.seenBefore, true),
    fields: Object.keys(fields).length ? fields : undefined,
  };
  return Object.fromEntries(Object.entries(filter).filter(([, v]) => v !== undefined)) as TSegmentFilter;
}

type TErrors = Record<string, string>;

function Field({
  label,
  error,
  children,
}: {
  label: string;
  error?: string;
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
      {error ? (
        <p className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function ListForm({
  list,
  onSaved,
  onCancel,
}: {
  list?: TCustomerList;
  onSaved: (list: TCustomerList) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(list?.name ?? '');
  const [description, setDescription] = useState(list?.description ?? '');
  const [kind, setKind] = useState<TCustomerListKind>(list?.kind ?? 'static');
  const [conditions, setConditions] = useState<TConditions>(conditionsOf(list?.filter));
  const [errors, setErrors] = useState<TErrors>({});
  const [formError, setFormError] = useState<string>();
  const create = useCreateList();
  const update = useUpdateList(list?.id ?? 0);
  const saving = create.isPending || update.isPending;
  const set = (patch: Partial<TConditions>) => setConditions((c) => ({ ...c, ...patch }));

  const submit = async () => {
    setErrors({});
    setFormError(undefined);
    const body = {
      name,
      description,
      kind,
      ...(kind === 'segment' ? { filter: filterOf(conditions) } : {}),
    };
    const checked = ZCreateCustomerListRequest.safeParse(body);
    if (!checked.success) {
      const found: TErrors = {};
      for (const issue of checked.error.issues)
        found[issue.path[0] === 'filter' ? 'filter' : String(issue.path[0])] ??= issue.message;
      setErrors(found);
      return;
    }
    try {
      const saved = list
        ? await update.mutateAsync({
            name: checked.data.name,
            description: checked.data.description,
            ...(list.kind === 'segment' && checked.data.filter ? { filter: checked.data.filter } : {}),
          })
        : await create.mutateAsync(checked.data);
      onSaved(saved);
    } catch (error) {
      const failure = describeApiFailure(error);
      const fields = failure.kind === 'response' ? failure.fieldErrors : null;
      const found: TErrors = {};
      for (const [key, messages] of Object.entries(fields ?? {})) {
        const field = key.startsWith('filter') ? 'filter' : key;
        if (['name', 'description', 'kind', 'filter'].includes(field)) found[field] ??= messages[0] ?? '';
      }
      if (Object.keys(found).length) setErrors(found);
      else setFormError(apiErrorMessage(error));
    }
  };

  return (
    <form
      noValidate
      aria-label={list ? S.editTitle : S.createTitle}
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <FormAlert message={formError} />
      <Field label={S.name} error={errors.name}>
        {(id) => (
          <Input
            id={id}
            value={name}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <Field label={S.descriptionLabel} error={errors.description}>
        {(id) => (
          <Textarea id={id} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />
        )}
      </Field>
      {list ? null : (
        <Field label={S.kind} error={errors.kind}>
          {(id) => (
            <>
              <NativeSelect
                id={id}
                value={kind}
                onChange={(e) => setKind(e.target.value as TCustomerListKind)}
              >
                <option value="static">{LISTS_STRINGS.kinds.static}</option>
                <option value="segment">{LISTS_STRINGS.kinds.segment}</option>
              </NativeSelect>
              <p className="text-xs text-muted-foreground">{S.kindHint}</p>
            </>
          )}
        </Field>
      )}
      {kind === 'segment' ? (
        <fieldset className="grid gap-3 rounded-md border p-3">
          <legend className="px-1 text-sm font-medium">{S.conditions}</legend>
          <p className="text-xs text-muted-foreground">{S.conditionsHint}</p>
          {errors.filter ? (
            <p className="text-sm text-destructive" role="alert">
              {errors.filter}
            </p>
          ) : null}
          <Field label={S.search}>
            {(id) => (
              <Input id={id} value={conditions.search} onChange={(e) => set({ search: e.target.value })} />
            )}
          </Field>
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label={S.hasEmail}>
              {(id) => (
                <NativeSelect
                  id={id}
                  value={conditions.hasEmail}
                  onChange={(e) => set({ hasEmail: e.target.value as TTri })}
                >
                  <option value="">{S.any}</option>
                  <option value="yes">{S.has}</option>
                  <option value="no">{S.hasNot}</option>
                </NativeSelect>
              )}
            </Field>
            <Field label={S.hasPhone}>
              {(id) => (
                <NativeSelect
                  id={id}
                  value={conditions.hasPhone}
                  onChange={(e) => set({ hasPhone: e.target.value as TTri })}
                >
                  <option value="">{S.any}</option>
                  <option value="yes">{S.has}</option>
                  <option value="no">{S.hasNot}</option>
                </NativeSelect>
              )}
            </Field>
            <Field label={S.channel}>
              {(id) => (
                <NativeSelect
                  id={id}
                  value={conditions.channel}
                  onChange={(e) => set({ channel: e.target.value as TConditions['channel'] })}
                >
                  <option value="">{S.anyChannel}</option>
                  <option value="whatsapp">{S.channels.whatsapp}</option>
                  <option value="titan_message">{S.channels.titan_message}</option>
                </NativeSelect>
              )}
            </Field>
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            {(
              [
                ['createdAfter', S.createdAfter],
                ['createdBefore', S.createdBefore],
                ['seenAfter', S.seenAfter],
                ['seenBefore', S.seenBefore],
              ] as const
            ).map(([key, label]) => (
              <Field key={key} label={label}>
                {(id) => (
                  <Input
                    id={id}
                    type="date"
                    value={conditions[key]}
                    onChange={(e) => set({ [key]: e.target.value })}
                  />
                )}
              </Field>
            ))}
          </div>
          {conditions.fields.map((field, i) => (
            <div key={i} className="flex items-end gap-2">
              <Field label={S.fieldKey}>
                {(id) => (
                  <Input
                    id={id}
                    value={field.key}
                    onChange={(e) =>
                      set({
                        fields: conditions.fields.map((f, j) =>
                          j === i ? { ...f, key: e.target.value } : f,
                        ),
                      })
                    }
                  />
                )}
              </Field>
              <Field label={S.fieldValue}>
                {(id) => (
                  <Input
                    id={id}
                    value={field.value}
                    onChange={(e) =>
                      set({
                        fields: conditions.fields.map((f, j) =>
                          j === i ? { ...f, value: e.target.value } : f,
                        ),
                      })
                    }
                  />
                )}
              </Field>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={S.removeField}
                onClick={() => set({ fields: conditions.fields.filter((_, j) => j !== i) })}
              >
                <XIcon aria-hidden="true" />
              </Button>
            </div>
          ))}
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="w-fit"
            onClick={() => set({ fields: [...conditions.fields, { key: '', value: '' }] })}
          >
            <PlusIcon aria-hidden="true" />
            {S.addField}
          </Button>
        </fieldset>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={saving}>
          {saving ? S.saving : list ? S.save : S.create}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          {S.cancel}
        </Button>
      </div>
    </form>
  );
}
