// The email template editor: name, subject, preheader, format and the source in a code editor, with
// a live preview (the draft is rendered by the server, debounced) at desktop and phone widths,
// a Visual view for MJML (GrapesJS blocks, saving the same MJML the code view shows),
// sample values, versions with restore, image upload into the source, and delete. Errors from the
// server are shown at their line. Without engage.write everything is read-only. react-hook-form holds
// the fields; its zod resolver checks them with the shared contract (ZCreateEmailTemplateRequest)
// before sending, and the server's field errors land on the same fields.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  emailBrandBlocks,
  lineOfTemplateError,
  ZCreateEmailTemplateRequest,
  type TCreateEmailTemplateRequest,
  type TEmailTemplate,
  type TEmailTemplateDraft,
  type TEmailTemplateFormat,
  type TFieldErrors,
} from '@titan/contracts';
import { ImageIcon, SaveIcon, Trash2Icon } from 'lucide-react';
import { useMemo, useRef, useState, type ChangeEvent } from 'react';
import { Controller, useForm, useWatch, type FieldError as TFormFieldError } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';

import { ConfirmAction } from '../../../components/confirm-action';
import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ToggleGroup, ToggleGroupItem } from '../../../components/ui/toggle-group';
import { EMAIL_TEMPLATES_PATH, emailTemplatePath } from '../../../config/paths';
import { apiErrorMessage, describeApiFailure, reportApiError } from '../../../lib/api-errors';
import { useDeleteEmailTemplate } from '../api/delete-email-template';
import { useEmailBlocks } from '../api/get-email-blocks';
import { useEmailBrand } from '../api/get-email-brand';
import { useEmailTemplatePreview } from '../api/preview-email-template';
import { useCreateEmailTemplate, useUpdateEmailTemplate } from '../api/save-email-template';
import { useUploadTemplateImage } from '../api/upload-template-image';
import { EMAIL_TEMPLATE_STRINGS as S } from '../strings';
import { useDebouncedValue } from '../utils/use-debounced-value';
import {
  nestVariables,
  sampleValueFor,
  starterFor,
  variablesIn,
  visualProblemOf,
} from '../utils/template-source';
import type { TCodeEditorHandle, TEditorError } from './code-editor-types';
import { LazyCodeEditor } from './lazy-code-editor';
import { LazyVisualEditor } from './lazy-visual-editor';
import { SaveBlockControl } from './save-block-control';
import type { TVisualBlock, TVisualEditorHandle } from './visual-editor-types';
import { PreviewPane } from './preview-pane';
import { VariablesPanel } from './variables-panel';
import { TestSendPanel } from './test-send-panel';
import { VersionsPanel } from './versions-panel';

/** How long typing pauses before the preview renders again. */
const PREVIEW_DEBOUNCE_MS = 400;

type TForm = {
  name: string;
  subject: string;
  preheader: string;
  format: TEmailTemplateFormat;
  content: string;
  text_content: string;
};

function formOf(t: TEmailTemplate | null, starter?: string): TForm {
  if (!t) {
    return {
      name: '',
      subject: '',
      preheader: '',
      format: 'mjml',
      content: starter ?? starterFor('mjml'),
      text_content: '',
    };
  }
  return {
    name: t.name,
    subject: t.subject,
    preheader: t.preheader,
    format: t.format,
    content: t.content,
    text_content: t.text_content ?? '',
  };
}

const FORMAT_OPTIONS = [
  { value: 'mjml', label: S.formats.mjml },
  { value: 'html', label: S.formats.html },
] as const;

const FIELDS = ['name', 'subject', 'preheader', 'format', 'content', 'text_content'] as const;

const sameForm = (a: TForm, b: TForm) => FIELDS.every((k) => a[k] === b[k]);

/** The form's values → the request (an empty text part is none), checked by the contract. */
const ZTemplateForm = z
  .custom<TForm>()
  .transform((f): z.input<typeof ZCreateEmailTemplateRequest> => ({
    ...f,
    text_content: f.text_content || null,
  }))
  .pipe(ZCreateEmailTemplateRequest);

/** A field's messages: the server's (each kept, a line's error at its line) or the contract's one. */
const messagesOf = (error: TFormFieldError | undefined): string[] | undefined => {
  if (!error) return undefined;
  if (error.types)
    return Object.values(error.types).flatMap((m) =>
      typeof m === 'string' ? [m] : Array.isArray(m) ? m : [],
    );
  return error.message ? [error.message] : undefined;
};

export function TemplateEditor({
  template,
  starter,
  canWrite,
}: {
  template: TEmailTemplate | null;
  /** A new template's MJML to start from (the brand's), instead of the plain starter. */
  starter?: string;
  canWrite: boolean;
}) {
  const navigate = useNavigate();
  const [saved, setSaved] = useState<TEmailTemplate | null>(template);
  const form = useForm<TForm, unknown, TCreateEmailTemplateRequest>({
    resolver: zodResolver(ZTemplateForm),
    defaultValues: formOf(template, starter),
  });
  const watched = useWatch({ control: form.control, name: FIELDS });
  const values = Object.fromEntries(FIELDS.map((k, i) => [k, watched[i]])) as TForm;
  const [formError, setFormError] = useState<string | undefined>();
  const [samples, setSamples] = useState<Record<string, string>>({});
  const [customerId, setCustomerId] = useState('');
  const [view, setView] = useState<'code' | 'visual'>('code');
  const editor = useRef<TCodeEditorHandle | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const create = useCreateEmailTemplate();
  const update = useUpdateEmailTemplate();
  const remove = useDeleteEmailTemplate();
  const upload = useUploadTemplateImage();
  const saving = create.isPending || update.isPending;
  const readOnly = !canWrite;
  const dirty = !sameForm(values, formOf(saved, starter));
  const unsaved = useUnsavedChanges(dirty && canWrite);

  const variables = useMemo(
    () =>
      [
        ...new Set([
          ...variablesIn(values.subject, values.preheader, values.content, values.text_content),
          ...(saved?.variables ?? []),
        ]),
      ].sort(),
    [values.subject, values.preheader, values.content, values.text_content, saved?.variables],
  );
  const sampleValues = useMemo(
    () => Object.fromEntries(variables.map((v) => [v, samples[v] ?? sampleValueFor(v)])),
    [variables, samples],
  );

  const previewSource = useMemo(
    () => ({
      templateId: saved?.id ?? null,
      draft: {
        subject: values.subject,
        preheader: values.preheader,
        format: values.format,
        content: values.content,
        text_content: values.text_content || null,
      } satisfies TEmailTemplateDraft,
      variables: nestVariables(sampleValues),
      customerId: customerId ? Number(customerId) : null,
    }),
    [
      saved?.id,
      values.subject,
      values.preheader,
      values.format,
      values.content,
      values.text_content,
      sampleValues,
      customerId,
    ],
  );
  const previewInput = useDebouncedValue(previewSource, PREVIEW_DEBOUNCE_MS);
  const preview = useEmailTemplatePreview(previewInput);
  const previewErrors: TFieldErrors = preview.data?.errors ?? {};
  const customerError =
    preview.isError && describeApiFailure(preview.error).kind === 'response'
      ? (describeApiFailure(preview.error) as { fieldErrors: TFieldErrors | null }).fieldErrors?.customer_id
      : undefined;

  const errorsOf = (field: keyof TForm) => messagesOf(form.formState.errors[field]) ?? previewErrors[field];
  const contentErrors = errorsOf('content') ?? [];
  const editorErrors: TEditorError[] = contentErrors.map((message) => ({
    line: lineOfTemplateError(message),
    message,
  }));

  // Checked when switching to the Visual view; once there, what the blocks make is MJML.
  const visualProblem = visualProblemOf(values.format, values.content);
  const showVisual = view === 'visual' && values.format === 'mjml';
  const visualEditor = useRef<TVisualEditorHandle | null>(null);
  const brand = useEmailBrand(showVisual);
  const savedBlocks = useEmailBlocks(showVisual);
  const visualBlocks = useMemo<TVisualBlock[]>(
    () => [
      ...(brand.data
        ? emailBrandBlocks(brand.data).map((b) => ({ ...b, category: S.brand.blocksCategory }))
        : []),
      ...(savedBlocks.data ?? []).map((b) => ({
        id: `saved-${b.id}`,
        label: b.name,
        category: S.brand.savedCategory,
        content: b.content,
      })),
    ],
    [brand.data, savedBlocks.data],
  );
  const uploadForVisual = async (file: File) =>
    (await upload.mutateAsync({ file, templateId: saved?.id ?? null })).url;

  const onSaveError = (error: unknown) => {
    const failure = describeApiFailure(error);
    if (failure.kind === 'response' && failure.status === 400 && failure.fieldErrors) {
      for (const [field, messages] of Object.entries(failure.fieldErrors))
        if ((FIELDS as readonly string[]).includes(field))
          form.setError(field as keyof TForm, {
            type: 'server',
            message: messages.join(' '),
            types: Object.fromEntries(messages.map((m, i) => [`server-${i}`, m])),
          });
      setFormError(failure.fieldErrors.non_field_errors?.join(' ') ?? S.fixErrors);
      return;
    }
    setFormError(apiErrorMessage(error));
    reportApiError(error);
  };

  const save = (body: TCreateEmailTemplateRequest) => {
    if (!saved) {
      create.mutate(body, {
        onSuccess: (t) => {
          toast.success(S.created);
          setSaved(t);
          unsaved.release();
          void navigate(emailTemplatePath(t.id), { replace: true });
        },
        onError: onSaveError,
      });
      return;
    }
    update.mutate(
      { id: saved.id, base_version: saved.version, ...body },
      {
        onSuccess: (t) => {
          setSaved(t);
          form.reset(formOf(t));
          if (t.version !== saved.version) toast.success(S.saved(t.version));
        },
        onError: onSaveError,
      },
    );
  };

  const restore = (version: number) => {
    if (!saved) return;
    update.mutate(
      { id: saved.id, restore_version: version },
      {
        onSuccess: (t) => {
          setSaved(t);
          form.reset(formOf(t));
          toast.success(S.restored(version, t.version));
        },
        onError: (error) => reportApiError(error, { toast: true }),
      },
    );
  };

  const onDelete = () => {
    if (!saved) return;
    remove.mutate(saved.id, {
      onSuccess: async () => {
        toast.success(S.deleted(saved.name));
        unsaved.release();
        await navigate(EMAIL_TEMPLATES_PATH);
      },
      onError: (error) => reportApiError(error, { toast: true }),
    });
  };

  const onImage = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    upload.mutate(
      { file, templateId: saved?.id ?? null },
      {
        onSuccess: (image) => {
          const tag =
            form.getValues('format') === 'mjml'
              ? `<mj-image src="${image.url}" alt="" />`
              : `<img src="${image.url}" alt="" />`;
          if (editor.current) editor.current.insert(tag);
          else {
            form.setValue('content', `${form.getValues('content')}${tag}`);
            form.clearErrors('content');
          }
          toast.success(S.imageInserted);
        },
        onError: (error) => reportApiError(error, { toast: S.imageFailed }),
      },
    );
  };

  return (
    <div className="grid gap-6">
      {unsaved.dialog}
      {readOnly ? <p className="text-sm text-muted-foreground">{S.readOnly}</p> : null}
      <FormAlert message={formError} />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <form
          aria-label={saved ? S.editTitle : S.newTitle}
          className="grid min-w-0 content-start gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setFormError(undefined);
            if (canWrite) void form.handleSubmit(save)(e);
          }}
        >
          <div className="grid gap-4 md:grid-cols-[1fr_10rem]">
            <TextField
              label={S.name}
              readOnly={readOnly}
              registration={form.register('name')}
              error={errorsOf('name')?.join(' ')}
            />
            <SelectField
              label={S.format}
              disabled={readOnly}
              options={FORMAT_OPTIONS}
              registration={form.register('format', { onChange: () => setView('code') })}
            />
          </div>
          <TextField
            label={S.subject}
            readOnly={readOnly}
            registration={form.register('subject')}
            error={errorsOf('subject')?.join(' ')}
          />
          <TextField
            label={S.preheader}
            hint={S.preheaderHint}
            readOnly={readOnly}
            registration={form.register('preheader')}
            error={errorsOf('preheader')?.join(' ')}
          />
          <div className="grid gap-2">
            <div className="flex items-center justify-between gap-2">
              <span className="text-sm font-medium">{S.content}</span>
              {canWrite && values.format === 'mjml' ? (
                <ToggleGroup
                  type="single"
                  variant="outline"
                  size="sm"
                  aria-label={S.editorView}
                  value={showVisual ? 'visual' : 'code'}
                  onValueChange={(v) => {
                    if (v === 'code' || v === 'visual') setView(v);
                  }}
                >
                  <ToggleGroupItem value="code">{S.viewCode}</ToggleGroupItem>
                  <ToggleGroupItem value="visual" disabled={!showVisual && visualProblem !== null}>
                    {S.viewVisual}
                  </ToggleGroupItem>
                </ToggleGroup>
              ) : null}
              {canWrite && !showVisual ? (
                <>
                  <input
                    ref={fileInput}
                    type="file"
                    accept="image/png,image/jpeg,image/gif,image/webp"
                    className="hidden"
                    aria-label={S.insertImage}
                    onChange={onImage}
                  />
                  <Button
                    type="button"
                    variant="outline"
                    size="sm"
                    disabled={upload.isPending}
                    onClick={() => fileInput.current?.click()}
                  >
                    {upload.isPending ? <Spinner /> : <ImageIcon aria-hidden="true" />}
                    {upload.isPending ? S.uploading : S.insertImage}
                  </Button>
                </>
              ) : null}
            </div>
            <Controller
              control={form.control}
              name="content"
              render={({ field }) =>
                showVisual ? (
                  <LazyVisualEditor
                    value={field.value}
                    onChange={field.onChange}
                    label={S.visualLabel}
                    uploadImage={uploadForVisual}
                    onUploadError={(error) => reportApiError(error, { toast: S.imageFailed })}
                    blocks={visualBlocks}
                    handleRef={visualEditor}
                  />
                ) : (
                  <LazyCodeEditor
                    value={field.value}
                    onChange={field.onChange}
                    readOnly={readOnly}
                    errors={editorErrors}
                    label={S.editorLabel}
                    handleRef={editor}
                  />
                )
              }
            />
            <p className="text-xs text-muted-foreground">{showVisual ? S.visualHint : S.contentHint}</p>
            {showVisual ? <SaveBlockControl editor={visualEditor} /> : null}
            {canWrite && !showVisual && values.format === 'mjml' && visualProblem !== null ? (
              <p className="text-xs text-muted-foreground">{visualProblem}</p>
            ) : null}
            {contentErrors.length > 0 ? (
              <ul aria-label={S.errorsAt} className="grid gap-1 text-sm text-destructive">
                {editorErrors.map((e, i) => (
                  <li key={i} className="flex items-center gap-2">
                    <span>{e.message}</span>
                    {e.line !== null ? (
                      <Button
                        type="button"
                        variant="link"
                        size="sm"
                        className="h-auto p-0"
                        onClick={() => editor.current?.goToLine(e.line!)}
                      >
                        {S.goToLine(e.line)}
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
          <TextareaField
            label={S.textContent}
            hint={S.textContentHint}
            rows={4}
            className="font-mono text-sm"
            readOnly={readOnly}
            registration={form.register('text_content')}
            error={errorsOf('text_content')?.join(' ')}
          />
          {canWrite ? (
            <div className="flex flex-wrap items-center gap-2">
              <Button type="submit" disabled={saving || (saved !== null && !dirty)}>
                {saving ? <Spinner /> : <SaveIcon aria-hidden="true" />}
                {saving ? S.saving : S.save}
              </Button>
              {saved && dirty ? (
                <span className="text-sm text-muted-foreground">{S.unsavedChanges}</span>
              ) : null}
              {saved ? (
                <div className="ml-auto">
                  <ConfirmAction
                    variant="outline"
                    size="default"
                    trigger={
                      <>
                        <Trash2Icon aria-hidden="true" />
                        {S.deleteTemplate}
                      </>
                    }
                    title={S.deleteTitle(saved.name)}
                    description={S.deleteText}
                    confirmLabel={S.delete}
                    disabled={remove.isPending}
                    onConfirm={onDelete}
                  />
                </div>
              ) : null}
            </div>
          ) : null}
        </form>
        <div className="grid min-w-0 content-start gap-4">
          <PreviewPane
            preview={preview.data}
            updating={preview.isFetching}
            failed={preview.isError && !customerError}
          />
          <VariablesPanel
            variables={variables}
            values={sampleValues}
            onChange={(path, value) => setSamples((s) => ({ ...s, [path]: value }))}
            customerId={customerId}
            onCustomerIdChange={setCustomerId}
          />
          {customerError ? (
            <p role="alert" className="text-sm text-destructive">
              {customerError.join(' ')}
            </p>
          ) : null}
          {canWrite ? (
            <TestSendPanel templateId={saved?.id ?? null} variables={nestVariables(sampleValues)} />
          ) : null}
          <VersionsPanel
            templateId={saved?.id ?? null}
            currentVersion={saved?.version ?? null}
            canRestore={canWrite}
            restoring={update.isPending}
            onRestore={restore}
          />
        </div>
      </div>
    </div>
  );
}
