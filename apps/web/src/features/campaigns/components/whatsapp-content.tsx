// The content of a WhatsApp campaign: an approved template, each of its variables filled per
// recipient from a customer field (or fixed text), the file of a media header (a link or an
// upload), and a preview of the message as it will read.
import type { TWhatsappTemplate } from '@titan/contracts';
import { useId, useRef, type ReactNode } from 'react';

import { SectionError, SectionLoading } from '../../../components/load-state';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { apiErrorMessage } from '../../../lib/api-errors';
import { templateComponentText, useWhatsappTemplates } from '../../../lib/whatsapp/templates';
import { useUploadWhatsappMedia } from '../../../lib/whatsapp/upload-media';
import { COMPOSER_STRINGS } from '../strings';
import { EMPTY_WHATSAPP, type TWhatsappDraft } from './whatsapp-draft';

const S = COMPOSER_STRINGS.whatsapp;

const MEDIA = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
type TMediaFormat = (typeof MEDIA)[number];
const isMedia = (f: string | null): f is TMediaFormat => (MEDIA as readonly (string | null)[]).includes(f);

/** The variables a template takes, as the campaign's `variables` keys them. */
function variableKeys(t: TWhatsappTemplate): string[] {
  return [
    ...(t.header_format === 'TEXT' ? t.header_parameter_names.map((n) => `header.${n}`) : []),
    ...t.body_parameter_names,
    ...t.button_parameters.map((b) => `button.${b.index}`),
  ];
}

type TSource = 'customer.name' | 'customer.email' | 'customer.phone' | 'field' | 'text';
const SOURCES: TSource[] = ['customer.name', 'customer.email', 'customer.phone', 'field', 'text'];

/** How a variable's value reads back: one of the customer's own values, a custom field, or text. */
function sourceOf(spec: string): { source: TSource; rest: string } {
  const own = /^customer\.(name|email|phone)$/.exec(spec.trim());
  if (own) return { source: `customer.${own[1]}` as TSource, rest: '' };
  const field = /^fields\.(.*)$/.exec(spec);
  if (field) return { source: 'field', rest: field[1] ?? '' };
  return { source: 'text', rest: spec };
}

function specOf(source: TSource, rest: string): string {
  if (source === 'field') return `fields.${rest}`;
  if (source === 'text') return rest;
  return source;
}

/** What a variable shows in the preview: text as written, a field as [field], nothing as {{key}}. */
function shown(spec: string | undefined, key: string): string {
  if (!spec?.trim()) return `{{${key.replace(/^(header|button)\./, '')}}}`;
  return /^(customer|fields)\./.test(spec.trim()) ? `[${spec.trim()}]` : spec;
}

function fill(text: string, prefix: string, variables: Record<string, string>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_whole, key: string) => {
    const k = `${prefix}${key}`;
    return shown(variables[k] ?? (prefix === '' ? variables[`body.${key}`] : undefined), k);
  });
}

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="grid min-w-0 gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children(id)}
    </div>
  );
}

function VariableRow({
  name,
  spec,
  onChange,
}: {
  name: string;
  spec: string;
  onChange: (spec: string) => void;
}) {
  const { source, rest } = sourceOf(spec);
  return (
    <div className="grid gap-2 sm:grid-cols-2">
      <Field label={S.source(name)}>
        {(id) => (
          <NativeSelect
            id={id}
            value={source}
            onChange={(e) => onChange(specOf(e.target.value as TSource, ''))}
          >
            {SOURCES.map((s) => (
              <option key={s} value={s}>
                {S.sources[s]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      {source === 'field' || source === 'text' ? (
        <Field label={source === 'field' ? S.fieldName(name) : S.text(name)}>
          {(id) => (
            <Input
              id={id}
              value={rest}
              placeholder={source === 'field' ? 'plan' : undefined}
              onChange={(e) => onChange(specOf(source, e.target.value))}
            />
          )}
        </Field>
      ) : null}
    </div>
  );
}

function HeaderMedia({
  format,
  value,
  onChange,
}: {
  format: TMediaFormat;
  value: TWhatsappDraft['header_media'];
  onChange: (media: TWhatsappDraft['header_media']) => void;
}) {
  const upload = useUploadWhatsappMedia();
  const fileRef = useRef<HTMLInputElement>(null);
  const type = format.toLowerCase() as 'image' | 'video' | 'document';
  const accept =
    type === 'image' ? 'image/jpeg,image/png' : type === 'video' ? 'video/mp4,video/3gpp' : undefined;
  const uploadedName = value?.id ? (value.filename ?? value.id) : null;
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-medium">{S.header(format)}</legend>
      <p className="text-xs text-muted-foreground">{S.headerHint}</p>
      {uploadedName ? (
        <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
          <span className="min-w-0 break-all">{S.uploaded(uploadedName)}</span>
          <Button variant="outline" size="sm" onClick={() => onChange(null)}>
            {S.removeUpload}
          </Button>
        </div>
      ) : (
        <>
          <Field label={S.link}>
            {(id) => (
              <Input
                id={id}
                type="url"
                inputMode="url"
                value={value?.link ?? ''}
                onChange={(e) =>
                  onChange(e.target.value.trim() ? { type, link: e.target.value.trim() } : null)
                }
              />
            )}
          </Field>
          <Field label={S.upload}>
            {(id) => (
              <Input
                id={id}
                ref={fileRef}
                type="file"
                accept={accept}
                disabled={upload.isPending}
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (!file) return;
                  upload.mutate(file, {
                    onSuccess: (media) =>
                      onChange({
                        type,
                        id: media.id,
                        ...(type === 'document' ? { filename: media.file_name } : {}),
                      }),
                    onSettled: () => {
                      if (fileRef.current) fileRef.current.value = '';
                    },
                  });
                }}
              />
            )}
          </Field>
          {upload.isPending ? <p className="text-sm text-muted-foreground">{S.uploading}</p> : null}
          {upload.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {apiErrorMessage(upload.error, S.uploadFailed)}
            </p>
          ) : null}
        </>
      )}
    </fieldset>
  );
}

function Preview({ template, draft }: { template: TWhatsappTemplate; draft: TWhatsappDraft }) {
  const header = template.components.find((c) => c.type.toUpperCase() === 'HEADER');
  const format = template.header_format;
  const footer = templateComponentText(template, 'FOOTER');
  const buttons = template.components.find((c) => c.type.toUpperCase() === 'BUTTONS')?.buttons ?? [];
  const media = draft.header_media;
  return (
    <section aria-label={S.preview} className="grid gap-2">
      <h3 className="text-sm font-medium">{S.preview}</h3>
      <div className="max-w-md rounded-lg border bg-muted/40 p-3 text-sm">
        {header && format === 'TEXT' ? (
          <p className="font-semibold break-words">{fill(header.text ?? '', 'header.', draft.variables)}</p>
        ) : null}
        {isMedia(format) ? (
          <p className="break-all text-muted-foreground">
            {S.headerMedia(format, media?.link ?? media?.filename ?? media?.id ?? null)}
          </p>
        ) : null}
        <p className="whitespace-pre-wrap break-words">
          {fill(templateComponentText(template, 'BODY') ?? '', '', draft.variables)}
        </p>
        {footer ? <p className="mt-1 text-xs text-muted-foreground">{footer}</p> : null}
        {buttons.length > 0 ? (
          <ul className="mt-2 grid gap-1 border-t pt-2">
            {buttons.map((b, i) => (
              <li key={i} className="text-center text-primary">
                {b.text ?? b.type}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <p className="text-xs text-muted-foreground">{S.previewHint}</p>
    </section>
  );
}

export function WhatsappContent({
  value,
  onChange,
}: {
  value: TWhatsappDraft;
  onChange: (value: TWhatsappDraft) => void;
}) {
  const templates = useWhatsappTemplates({ status: 'APPROVED' });
  if (templates.isPending) return <SectionLoading />;
  if (templates.isError)
    return (
      <SectionError
        error={templates.error}
        onRetry={() => void templates.refetch()}
        fallback={S.loadFailed}
      />
    );
  const approved = templates.data.filter((t) => t.status === 'APPROVED');
  const chosen = approved.find((t) => t.name === value.name && t.language === value.language) ?? null;
  const keyOf = (t: { name: string; language: string }) => `${t.name}\u0000${t.language}`;
  return (
    <div className="grid gap-4">
      {approved.length === 0 ? <p className="text-sm text-muted-foreground">{S.noTemplates}</p> : null}
      <Field label={S.template}>
        {(id) => (
          <NativeSelect
            id={id}
            value={chosen ? keyOf(chosen) : ''}
            onChange={(e) => {
              const t = approved.find((x) => keyOf(x) === e.target.value);
              onChange(
                t
                  ? {
                      name: t.name,
                      language: t.language,
                      variables: Object.fromEntries(variableKeys(t).map((k) => [k, ''])),
                      header_media: null,
                    }
                  : { ...EMPTY_WHATSAPP },
              );
            }}
          >
            <option value="">{S.choose}</option>
            {approved.map((t) => (
              <option key={keyOf(t)} value={keyOf(t)}>
                {`${t.name} (${t.language})`}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      {chosen ? (
        <>
          <p className="text-sm text-muted-foreground">{S.category(chosen.category)}</p>
          {isMedia(chosen.header_format) ? (
            <HeaderMedia
              format={chosen.header_format}
              value={value.header_media}
              onChange={(header_media) => onChange({ ...value, header_media })}
            />
          ) : null}
          {variableKeys(chosen).length > 0 ? (
            <fieldset className="grid gap-3">
              <legend className="mb-1 text-sm font-medium">{S.variables}</legend>
              <p className="text-xs text-muted-foreground">{S.variablesHint}</p>
              {variableKeys(chosen).map((k) => (
                <VariableRow
                  key={k}
                  name={k}
                  spec={value.variables[k] ?? ''}
                  onChange={(spec) => onChange({ ...value, variables: { ...value.variables, [k]: spec } })}
                />
              ))}
            </fieldset>
          ) : null}
          <Preview template={chosen} draft={value} />
        </>
      ) : null}
    </div>
  );
}
