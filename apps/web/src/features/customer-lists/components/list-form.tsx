// Create or edit a list: name, description, and (creating) static or segment; a segment's
// conditions. react-hook-form holds the fields; its zod resolver turns them into the request and
// checks it with the shared contract (ZCreateCustomerListRequest) before sending; the server's field
// errors land on the same fields.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ZCreateCustomerListRequest,
  type TCreateCustomerListRequest,
  type TCustomerList,
  type TCustomerListKind,
  type TSegmentFilter,
  type TChannel,
} from '@titan/contracts';
import { PlusIcon, XIcon } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { useFieldArray, useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { z } from 'zod';

import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Textarea } from '../../../components/ui/textarea';
import { apiErrorMessage, describeApiFailure } from '../../../lib/api-errors';
import { useCreateList } from '../api/create-list';
import { useUpdateList } from '../api/update-list';
import { LISTS_STRINGS } from '../strings';

const S = LISTS_STRINGS.form;

type TTri = '' | 'yes' | 'no';
type TConditions = {
  search: string;
  hasEmail: TTri;
  hasPhone: TTri;
  channel: '' | TChannel;
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

/** What the form holds: the request's fields, a segment's conditions as the inputs show them. */
type TListFormValues = {
  name: string;
  description: string;
  kind: TCustomerListKind;
  doubleOptIn: boolean;
  conditions: TConditions;
};

/** The form's values → the request (a segment's conditions as its filter), checked by the contract. */
const ZListForm = z
  .custom<TListFormValues>()
  .transform(
    ({ name, description, kind, doubleOptIn, conditions }): z.input<typeof ZCreateCustomerListRequest> => ({
      name,
      description,
      kind,
      double_opt_in: kind === 'static' && doubleOptIn,
      ...(kind === 'segment' ? { filter: filterOf(conditions) } : {}),
    }),
  )
  .pipe(ZCreateCustomerListRequest);

type TErrors = Record<string, string>;

/** The first message under each field the form shows errors at (a filter's, whatever its depth). */
function errorsOf(errors: FieldErrors<TListFormValues> & { filter?: unknown }): TErrors {
  const first = (node: unknown): string | undefined => {
    if (!node || typeof node !== 'object') return undefined;
    const { message } = node as { message?: unknown };
    if (typeof message === 'string' && message) return message;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'ref' || key === 'type' || key === 'message') continue;
      const found = first(child);
      if (found) return found;
    }
    return undefined;
  };
  const found: TErrors = {};
  for (const field of ['name', 'description', 'kind', 'filter', 'root'] as const) {
    const message = first((errors as Record<string, unknown>)[field]);
    if (message) found[field] = message;
  }
  return found;
}

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
  const form = useForm<TListFormValues, unknown, TCreateCustomerListRequest>({
    resolver: zodResolver(ZListForm),
    defaultValues: {
      name: list?.name ?? '',
      description: list?.description ?? '',
      kind: list?.kind ?? 'static',
      doubleOptIn: list?.double_opt_in ?? false,
      conditions: conditionsOf(list?.filter),
    },
  });
  const { register, control } = form;
  const fieldRows = useFieldArray({ control, name: 'conditions.fields' });
  const kind = useWatch({ control, name: 'kind' });
  const errors = errorsOf(form.formState.errors);
  const formId = useId();
  const [formError, setFormError] = useState<string>();
  const create = useCreateList();
  const update = useUpdateList(list?.id ?? 0);
  const saving = create.isPending || update.isPending;

  const submit = async (checked: TCreateCustomerListRequest) => {
    setFormError(undefined);
    try {
      const saved = list
        ? await update.mutateAsync({
            name: checked.name,
            description: checked.description,
            ...(list.kind === 'static' ? { double_opt_in: checked.double_opt_in } : {}),
            ...(list.kind === 'segment' && checked.filter ? { filter: checked.filter } : {}),
          })
        : await create.mutateAsync(checked);
      onSaved(saved);
    } catch (error) {
      const failure = describeApiFailure(error);
      const fields = failure.kind === 'response' ? failure.fieldErrors : null;
      const found: TErrors = {};
      for (const [key, messages] of Object.entries(fields ?? {})) {
        const field = key.startsWith('filter') ? 'filter' : key;
        if (['name', 'description', 'kind', 'filter'].includes(field)) found[field] ??= messages[0] ?? '';
      }
      if (Object.keys(found).length) {
        for (const [field, message] of Object.entries(found))
          form.setError(field as 'name', { type: 'server', message });
      } else setFormError(apiErrorMessage(error));
    }
  };

  return (
    <form
      noValidate
      aria-label={list ? S.editTitle : S.createTitle}
      className="grid gap-4"
      onSubmit={(event) => {
        setFormError(undefined);
        void form.handleSubmit(submit)(event);
      }}
    >
      <FormAlert message={formError} />
      <Field label={S.name} error={errors.name}>
        {(id) => (
          <Input
            id={id}
            autoComplete="off"
            aria-invalid={errors.name ? true : undefined}
            {...register('name')}
          />
        )}
      </Field>
      <Field label={S.descriptionLabel} error={errors.description}>
        {(id) => <Textarea id={id} rows={2} {...register('description')} />}
      </Field>
      {list ? null : (
        <Field label={S.kind} error={errors.kind}>
          {(id) => (
            <>
              <NativeSelect id={id} {...register('kind')}>
                <option value="static">{LISTS_STRINGS.kinds.static}</option>
                <option value="segment">{LISTS_STRINGS.kinds.segment}</option>
              </NativeSelect>
              <p className="text-xs text-muted-foreground">{S.kindHint}</p>
            </>
          )}
        </Field>
      )}
      {kind === 'static' ? (
        <div className="flex items-start gap-3">
          <input
            id={`${formId}-double-opt-in`}
            type="checkbox"
            className="mt-0.5 size-4 shrink-0"
            aria-describedby={`${formId}-double-opt-in-hint`}
            {...register('doubleOptIn')}
          />
          <div className="grid gap-1">
            <Label htmlFor={`${formId}-double-opt-in`}>{S.doubleOptIn}</Label>
            <p id={`${formId}-double-opt-in-hint`} className="text-xs text-muted-foreground">
              {S.doubleOptInHint}
            </p>
          </div>
        </div>
      ) : null}
      {kind === 'segment' ? (
        <fieldset className="grid gap-3 rounded-md border p-3">
          <legend className="px-1 text-sm font-medium">{S.conditions}</legend>
          <p className="text-xs text-muted-foreground">{S.conditionsHint}</p>
          {errors.filter ? (
            <p className="text-sm text-destructive" role="alert">
              {errors.filter}
            </p>
          ) : null}
          <Field label={S.search}>{(id) => <Input id={id} {...register('conditions.search')} />}</Field>
          <div className="grid gap-3 sm:grid-cols-3">
            <Field label={S.hasEmail}>
              {(id) => (
                <NativeSelect id={id} {...register('conditions.hasEmail')}>
                  <option value="">{S.any}</option>
                  <option value="yes">{S.has}</option>
                  <option value="no">{S.hasNot}</option>
                </NativeSelect>
              )}
            </Field>
            <Field label={S.hasPhone}>
              {(id) => (
                <NativeSelect id={id} {...register('conditions.hasPhone')}>
                  <option value="">{S.any}</option>
                  <option value="yes">{S.has}</option>
                  <option value="no">{S.hasNot}</option>
                </NativeSelect>
              )}
            </Field>
            <Field label={S.channel}>
              {(id) => (
                <NativeSelect id={id} {...register('conditions.channel')}>
                  <option value="">{S.anyChannel}</option>
                  <option value="whatsapp">{S.channels.whatsapp}</option>
                  <option value="titan_message">{S.channels.titan_message}</option>
                  <option value="email">{S.channels.email}</option>
                  <option value="sms">{S.channels.sms}</option>
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
                {(id) => <Input id={id} type="date" {...register(`conditions.${key}`)} />}
              </Field>
            ))}
          </div>
          {fieldRows.fields.map((row, i) => (
            <div key={row.id} className="flex items-end gap-2">
              <Field label={S.fieldKey}>
                {(id) => <Input id={id} {...register(`conditions.fields.${i}.key`)} />}
              </Field>
              <Field label={S.fieldValue}>
                {(id) => <Input id={id} {...register(`conditions.fields.${i}.value`)} />}
              </Field>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                aria-label={S.removeField}
                onClick={() => fieldRows.remove(i)}
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
            onClick={() => fieldRows.append({ key: '', value: '' })}
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
