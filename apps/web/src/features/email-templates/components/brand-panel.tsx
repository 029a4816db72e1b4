// The business's brand for mail: a logo (uploaded as an image for email), primary and text colours,
// a font and the footer's postal address, with a live look at the footer block they make. The
// visual editor offers the brand as ready-made blocks. Without engage.write it is read-only.
import {
  EMAIL_BRAND_FONT_NAMES,
  EMAIL_BRAND_FONTS,
  type TEmailBrand,
  type TEmailBrandFont,
  type TFieldErrors,
} from '@titan/contracts';
import { ImageIcon, SaveIcon, XIcon } from 'lucide-react';
import { useRef, useState, type ChangeEvent } from 'react';
import { toast } from 'sonner';

import { FieldShell } from '../../../components/form/field-shell';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { apiErrorMessage, describeApiFailure, reportApiError } from '../../../lib/api-errors';
import { useSaveEmailBrand } from '../api/save-email-brand';
import { useUploadTemplateImage } from '../api/upload-template-image';
import { EMAIL_TEMPLATE_STRINGS } from '../strings';

const S = EMAIL_TEMPLATE_STRINGS.brand;

type TForm = Omit<TEmailBrand, 'updated_at'>;

const formOf = ({ updated_at: _u, ...form }: TEmailBrand): TForm => form;
const HEX = /^#[0-9a-fA-F]{6}$/;

function ColorField({
  label,
  hint,
  value,
  errors,
  readOnly,
  onChange,
}: {
  label: string;
  hint?: string;
  value: string;
  errors: string[] | undefined;
  readOnly: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <div className="min-w-0">
      <FieldShell label={label} hint={hint} error={errors?.join(' ')}>
        {(a11y) => (
          <div className="flex items-center gap-2">
            <input
              type="color"
              aria-label={`${label} picker`}
              className="h-9 w-12 shrink-0 cursor-pointer rounded-md border bg-transparent p-1 disabled:cursor-default"
              value={HEX.test(value) ? value.toLowerCase() : '#000000'}
              disabled={readOnly}
              onChange={(e) => onChange(e.target.value)}
            />
            <Input
              {...a11y}
              value={value}
              readOnly={readOnly}
              className="min-w-0 font-mono"
              onChange={(e) => onChange(e.target.value)}
            />
          </div>
        )}
      </FieldShell>
    </div>
  );
}

export function BrandPanel({ brand, canWrite }: { brand: TEmailBrand; canWrite: boolean }) {
  const [form, setForm] = useState<TForm>(() => formOf(brand));
  const [errors, setErrors] = useState<TFieldErrors>({});
  const [formError, setFormError] = useState<string | undefined>();
  const fileInput = useRef<HTMLInputElement>(null);
  const save = useSaveEmailBrand();
  const upload = useUploadTemplateImage();
  const readOnly = !canWrite;

  const set = <K extends keyof TForm>(key: K, value: TForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
  };

  const onLogo = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    upload.mutate(
      { file, templateId: null },
      {
        onSuccess: (image) => set('logo_url', image.url),
        onError: (error) => reportApiError(error, { toast: EMAIL_TEMPLATE_STRINGS.imageFailed }),
      },
    );
  };

  const onSubmit = () => {
    setFormError(undefined);
    save.mutate(form, {
      onSuccess: (saved) => {
        setForm(formOf(saved));
        setErrors({});
        toast.success(S.saved);
      },
      onError: (error) => {
        const failure = describeApiFailure(error);
        if (failure.kind === 'response' && failure.status === 400 && failure.fieldErrors) {
          setErrors(failure.fieldErrors);
          setFormError(failure.fieldErrors.non_field_errors?.join(' ') ?? EMAIL_TEMPLATE_STRINGS.fixErrors);
          return;
        }
        setFormError(apiErrorMessage(error));
        reportApiError(error);
      },
    });
  };

  const font = EMAIL_BRAND_FONTS[form.font_family];
  return (
    <form
      aria-label={S.formLabel}
      className="grid min-w-0 gap-5"
      onSubmit={(e) => {
        e.preventDefault();
        if (canWrite) onSubmit();
      }}
    >
      {readOnly ? <p className="text-sm text-muted-foreground">{S.readOnly}</p> : null}
      <FormAlert message={formError} />
      <div className="grid gap-2">
        <span className="text-sm font-medium">{S.logo}</span>
        <div className="flex flex-wrap items-center gap-3">
          {form.logo_url ? (
            <img
              src={form.logo_url}
              alt={S.logoAlt}
              className="h-12 max-w-[12rem] rounded border bg-white object-contain p-1"
            />
          ) : (
            <span className="text-sm text-muted-foreground">{S.noLogo}</span>
          )}
          {canWrite ? (
            <>
              <input
                ref={fileInput}
                type="file"
                accept="image/png,image/jpeg,image/gif,image/webp"
                className="hidden"
                aria-label={S.uploadLogo}
                onChange={onLogo}
              />
              <Button
                type="button"
                variant="outline"
                size="sm"
                disabled={upload.isPending}
                onClick={() => fileInput.current?.click()}
              >
                {upload.isPending ? <Spinner /> : <ImageIcon aria-hidden="true" />}
                {upload.isPending ? EMAIL_TEMPLATE_STRINGS.uploading : S.uploadLogo}
              </Button>
              {form.logo_url ? (
                <Button type="button" variant="ghost" size="sm" onClick={() => set('logo_url', null)}>
                  <XIcon aria-hidden="true" />
                  {S.removeLogo}
                </Button>
              ) : null}
            </>
          ) : null}
        </div>
        {errors.logo_url?.length ? (
          <p className="text-sm text-destructive">{errors.logo_url.join(' ')}</p>
        ) : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <ColorField
          label={S.primaryColor}
          hint={S.primaryColorHint}
          value={form.primary_color}
          errors={errors.primary_color}
          readOnly={readOnly}
          onChange={(v) => set('primary_color', v)}
        />
        <ColorField
          label={S.textColor}
          value={form.text_color}
          errors={errors.text_color}
          readOnly={readOnly}
          onChange={(v) => set('text_color', v)}
        />
      </div>
      <FieldShell label={S.fontFamily} error={errors.font_family?.join(' ')}>
        {(a11y) => (
          <NativeSelect
            {...a11y}
            value={form.font_family}
            disabled={readOnly}
            onChange={(e) => set('font_family', e.target.value as TEmailBrandFont)}
          >
            {EMAIL_BRAND_FONT_NAMES.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </NativeSelect>
        )}
      </FieldShell>
      <FieldShell label={S.footerAddress} hint={S.footerAddressHint} error={errors.footer_address?.join(' ')}>
        {(a11y) => (
          <Textarea
            {...a11y}
            rows={3}
            value={form.footer_address}
            readOnly={readOnly}
            onChange={(e) => set('footer_address', e.target.value)}
          />
        )}
      </FieldShell>
      {/* How the brand reads in mail: always on white, as most inboxes show it. */}
      <div
        aria-hidden="true"
        className="grid justify-items-center gap-3 rounded-md border bg-white p-4 text-center text-xs break-words"
        style={{ fontFamily: font, color: HEX.test(form.text_color) ? form.text_color : undefined }}
      >
        {form.logo_url ? (
          <img src={form.logo_url} alt="" className="h-10 max-w-[10rem] object-contain" />
        ) : null}
        <span
          className="rounded-md px-4 py-2 text-sm text-white"
          style={{ background: HEX.test(form.primary_color) ? form.primary_color : undefined }}
        >
          Find out more
        </span>
        <span className="max-w-full whitespace-pre-line">{form.footer_address}</span>
        <span className="underline">Unsubscribe</span>
      </div>
      {canWrite ? (
        <div>
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? <Spinner /> : <SaveIcon aria-hidden="true" />}
            {save.isPending ? S.saving : S.save}
          </Button>
        </div>
      ) : null}
    </form>
  );
}
