// Settings → QR form: the form's text, fields, consent and list, edited beside a live preview of the
// public page and the saved form's QR code. Problems show on their field, the page's own checks
// (the shared contract) before saving and the server's after.
import { QR_FORM_CHANNELS, QR_FORM_FIELDS_MAX, type TQrSchema } from '@titan/contracts';
import { useForm, useWatch, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { VisitorFieldsBuilder } from '../../../components/form/visitor-fields-builder';
import { SelectField } from '../../../components/form/select-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { applyApiErrorToForm, describeApiFailure } from '../../../lib/api-errors';
import { useCustomerListChoices } from '../../../lib/customer-lists';
import { useSaveQrSchema } from '../api/save-qr-schema';
import { QR_EDITOR_STRINGS as S, QR_FIELD_TYPE_LABELS } from '../strings';
import {
  checkSaveRequest,
  toEditorValues,
  toPreview,
  toSaveRequest,
  type TEditorValues,
} from '../utils/editor-form';
import { QrCodeCard } from './qr-code-card';
import { QrFormView } from './qr-form-view';

type TEditorForm = UseFormReturn<TEditorValues>;

/** Where an error on the whole list of fields shows (react-hook-form keeps list errors apart). */
const FIELDS_ERROR = 'root.fields';

/** Puts errors keyed as the server keys them on the editor's fields; answers whether any showed. */
function showErrors(form: TEditorForm, errors: Record<string, string[]>): boolean {
  const known = new Set<string>([
    'title',
    'description',
    'thank_you',
    'slug',
    'active',
    'list_id',
    ...QR_FORM_CHANNELS.map((c) => `consent.${c}`),
    ...form
      .getValues('fields')
      .flatMap((_, i) => ['label', 'name', 'type', 'options'].map((k) => `fields.${i}.${k}`)),
  ]);
  let first: FieldPath<TEditorValues> | null = null;
  let shown = false;
  for (const [key, messages] of Object.entries(errors)) {
    const message = messages[0];
    if (!message) continue;
    if (key === 'fields') form.setError(FIELDS_ERROR, { type: 'server', message });
    else if (known.has(key)) {
      form.setError(key as FieldPath<TEditorValues>, { type: 'server', message });
      first ??= key as FieldPath<TEditorValues>;
    } else form.setError('root.server', { type: 'server', message });
    shown = true;
  }
  if (first) form.setFocus(first);
  return shown;
}

function ListPicker({ form }: { form: TEditorForm }) {
  const lists = useCustomerListChoices('static');
  const options = [
    { value: '', label: S.noList },
    ...(lists.data ?? []).map((list) => ({ value: String(list.id), label: list.name })),
  ];
  return (
    <div className="grid gap-1">
      <SelectField
        label={S.list}
        options={options}
        registration={form.register('list_id')}
        error={form.formState.errors.list_id?.message}
      />
      <p className="text-xs text-muted-foreground">{S.listHint}</p>
    </div>
  );
}

function ConsentChoices({ form }: { form: TEditorForm }) {
  const errors = form.formState.errors.consent;
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium">{S.consentTitle}</legend>
      <p className="text-xs text-muted-foreground">{S.consentHint}</p>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {QR_FORM_CHANNELS.map((channel) => (
          <label key={channel} className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4" {...form.register(`consent.${channel}`)} />
            {S.consentChannels[channel]}
          </label>
        ))}
      </div>
      {QR_FORM_CHANNELS.map((channel) =>
        errors?.[channel]?.message ? (
          <p key={channel} className="text-sm text-destructive">
            {errors[channel]?.message}
          </p>
        ) : null,
      )}
    </fieldset>
  );
}

function Preview({
  form,
  business,
}: {
  form: TEditorForm;
  business: { name: string; dial_code: string | null };
}) {
  const values = useWatch({ control: form.control }) as TEditorValues;
  const preview = toPreview(values, business);
  // A new field list or type starts the preview's answers afresh.
  const shape = preview.fields.map((f) => `${f.name}:${f.type}`).join(',');
  return (
    <Card>
      <CardHeader>
        <CardTitle>{S.previewTitle}</CardTitle>
      </CardHeader>
      <CardContent>
        <div aria-label={S.previewTitle} role="region" className="rounded-lg border bg-muted/30 p-4">
          <QrFormView key={shape} form={preview} preview />
        </div>
      </CardContent>
    </Card>
  );
}

export function QrFormEditor({
  schema,
  business,
  canEdit,
}: {
  schema: TQrSchema;
  business: { name: string; dial_code: string | null };
  canEdit: boolean;
}) {
  const form = useForm<TEditorValues>({ defaultValues: toEditorValues(schema) });
  const save = useSaveQrSchema();
  const { errors, isSubmitting } = form.formState;
  const unsaved = useUnsavedChanges(form.formState.isDirty);

  const onSubmit = form.handleSubmit(async (values) => {
    const request = toSaveRequest(values);
    if (showErrors(form, checkSaveRequest(request))) return;
    try {
      const saved = await save.mutateAsync(request);
      form.reset(toEditorValues(saved));
      toast.success(S.saved);
    } catch (error) {
      const failure = describeApiFailure(error);
      if (
        failure.kind === 'response' &&
        failure.status === 400 &&
        failure.fieldErrors &&
        showErrors(form, failure.fieldErrors)
      )
        return;
      applyApiErrorToForm(form, [], error);
    }
  });

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <Card>
        <CardHeader>
          <CardTitle>{S.title}</CardTitle>
          <CardDescription>{S.description}</CardDescription>
        </CardHeader>
        <CardContent>
          <form noValidate aria-label={S.title} onSubmit={(event) => void onSubmit(event)}>
            {unsaved.dialog}
            <fieldset disabled={!canEdit} className="grid gap-5">
              {!canEdit ? <p className="text-sm text-muted-foreground">{S.notAllowed}</p> : null}
              <FormAlert message={errors.root?.server?.message} />
              <TextField
                label={S.formTitle}
                registration={form.register('title')}
                error={errors.title?.message}
              />
              <TextareaField
                label={S.formDescription}
                rows={2}
                registration={form.register('description')}
                error={errors.description?.message}
              />
              <div className="grid gap-2">
                <h3 className="text-sm font-semibold">{S.fieldsTitle}</h3>
                <p className="text-xs text-muted-foreground">{S.fieldsHint}</p>
                <VisitorFieldsBuilder
                  form={form}
                  name="fields"
                  strings={S}
                  typeLabels={QR_FIELD_TYPE_LABELS}
                  max={QR_FORM_FIELDS_MAX}
                  min={1}
                  listError={form.formState.errors.root?.fields?.message}
                />
              </div>
              <ConsentChoices form={form} />
              <ListPicker form={form} />
              <TextareaField
                label={S.thankYou}
                rows={2}
                hint={S.thankYouHint}
                registration={form.register('thank_you')}
                error={errors.thank_you?.message}
              />
              <TextField
                label={S.slug}
                hint={S.slugHint}
                spellCheck={false}
                className="font-mono"
                registration={form.register('slug')}
                error={errors.slug?.message}
              />
              <div className="grid gap-1">
                <label className="flex items-center gap-2 text-sm font-medium">
                  <input type="checkbox" className="size-4" {...form.register('active')} />
                  {S.active}
                </label>
                <p className="text-xs text-muted-foreground">{S.activeHint}</p>
              </div>
              {canEdit ? (
                <div>
                  <Button type="submit" disabled={isSubmitting}>
                    {isSubmitting ? S.saving : S.save}
                  </Button>
                </div>
              ) : null}
            </fieldset>
          </form>
        </CardContent>
      </Card>
      <div className="grid gap-6 lg:sticky lg:top-4">
        <QrCodeCard schema={schema} />
        <Preview form={form} business={business} />
      </div>
    </div>
  );
}
