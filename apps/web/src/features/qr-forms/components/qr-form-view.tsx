// The visitor form as a visitor sees it: the business's title and text, each field (phone and number
// fields take digits only, the spec's numeric-only key handler), one box per channel the form asks
// consent for, worded as the server records it, and a thank-you once sent. Field errors, the page's
// own checks or the server's, show under their field. The editor shows the same view as its preview.
import {
  checkQrAnswer,
  QR_CONSENT_WORDING,
  QR_FORM_CHANNELS,
  qrAnswerKey,
  type TPublicQrForm,
  type TQrFormChannel,
  type TQrFormField,
  type TQrSubmission,
} from '@titan/contracts';
import { CheckCircle2Icon } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm, type FieldPath, type UseFormReturn } from 'react-hook-form';

import { FormAlert } from '../../../components/form/form-alert';
import { SelectField } from '../../../components/form/select-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { dialCodeDigits, numericOnlyInputProps } from '../../../lib/numeric-input';
import { cn } from '../../../lib/utils';
import { QR_PUBLIC_STRINGS as S } from '../strings';

type TAnswers = {
  fields: Record<string, string | boolean>;
  /** A phone field's country code digits, beside its number. */
  dial: Record<string, string>;
  consent: Record<TQrFormChannel, boolean>;
};
type TAnswersForm = UseFormReturn<TAnswers>;

const offeredChannels = (form: TPublicQrForm) => QR_FORM_CHANNELS.filter((c) => form.consent[c]);

function defaults(form: TPublicQrForm): TAnswers {
  const dial = dialCodeDigits(form.business.dial_code);
  return {
    fields: Object.fromEntries(form.fields.map((f) => [f.name, f.type === 'checkbox' ? false : ''])),
    dial: Object.fromEntries(form.fields.filter((f) => f.type === 'phone').map((f) => [f.name, dial])),
    consent: { email: false, sms: false, whatsapp: false },
  };
}

/** A phone number as sent: "+<country code><digits>", or the digits alone without a country code. */
function phoneValue(dial: string | undefined, digits: string): string {
  if (!digits) return '';
  return dial ? `+${dial}${digits.replace(/^0+/, '')}` : digits;
}

function toSubmission(form: TPublicQrForm, values: TAnswers): TQrSubmission {
  const fields: Record<string, string | boolean> = {};
  for (const field of form.fields) {
    const value = values.fields[field.name];
    if (field.type === 'checkbox') fields[field.name] = value === true;
    else if (field.type === 'phone')
      fields[field.name] = phoneValue(values.dial[field.name], String(value ?? ''));
    else fields[field.name] = typeof value === 'string' ? value.trim() : '';
  }
  const consent = Object.fromEntries(offeredChannels(form).map((c) => [c, values.consent[c] === true]));
  return { fields, consent };
}

const labelOf = (field: TQrFormField) => (field.required ? field.label : `${field.label} ${S.optional}`);

function FieldInput({ field, form }: { field: TQrFormField; form: TAnswersForm }) {
  const path = `fields.${field.name}` as const;
  const error = form.formState.errors.fields?.[field.name]?.message;
  const validate = (value: unknown) => {
    const answer =
      field.type === 'phone' ? phoneValue(form.getValues(`dial.${field.name}`), String(value ?? '')) : value;
    return checkQrAnswer(field, answer) ?? true;
  };
  const registration = form.register(path, { validate });
  const common = { 'aria-required': field.required || undefined } as const;
  switch (field.type) {
    case 'textarea':
      return (
        <TextareaField
          label={labelOf(field)}
          rows={4}
          registration={registration}
          error={error}
          {...common}
        />
      );
    case 'select':
      return (
        <SelectField
          label={labelOf(field)}
          registration={registration}
          error={error}
          options={[{ value: '', label: '—' }, ...(field.options ?? []).map((o) => ({ value: o, label: o }))]}
          {...common}
        />
      );
    case 'checkbox':
      return <CheckboxRow label={labelOf(field)} registration={registration} error={error} {...common} />;
    case 'phone':
      return (
        <div className="grid grid-cols-[5.5rem_1fr] items-start gap-3">
          <TextField
            label={S.dialCodeShort}
            aria-label={S.dialCode(field.label)}
            prefix="+"
            autoComplete="tel-country-code"
            {...numericOnlyInputProps}
            registration={form.register(`dial.${field.name}`)}
          />
          <TextField
            label={labelOf(field)}
            type="tel"
            autoComplete="tel-national"
            {...numericOnlyInputProps}
            registration={registration}
            error={error}
            {...common}
          />
        </div>
      );
    case 'number':
      return (
        <TextField
          label={labelOf(field)}
          {...numericOnlyInputProps}
          registration={registration}
          error={error}
          {...common}
        />
      );
    case 'email':
      return (
        <TextField
          label={labelOf(field)}
          type="email"
          autoComplete="email"
          spellCheck={false}
          registration={registration}
          error={error}
          {...common}
        />
      );
    case 'text':
      return (
        <TextField
          label={labelOf(field)}
          autoComplete={
            field.name === 'name'
              ? 'name'
              : field.name === 'first_name'
                ? 'given-name'
                : field.name === 'last_name'
                  ? 'family-name'
                  : 'off'
          }
          registration={registration}
          error={error}
          {...common}
        />
      );
    default: {
      const unreachable: never = field.type;
      return unreachable;
    }
  }
}

function CheckboxRow({
  label,
  registration,
  error,
  ...rest
}: {
  label: string;
  registration: ReturnType<TAnswersForm['register']>;
  error?: string | undefined;
  'aria-required'?: true | undefined;
}) {
  const id = useId();
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="flex items-start gap-3 text-sm leading-snug">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 accent-primary"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...rest}
          {...registration}
        />
        <span>{label}</span>
      </label>
      {error ? (
        <p id={`${id}-error`} className="pl-8 text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function Thanks({ form, onAgain }: { form: TPublicQrForm; onAgain: () => void }) {
  return (
    <div role="status" className="grid justify-items-start gap-3">
      <h2 className="flex items-center gap-2 text-xl font-semibold">
        <CheckCircle2Icon aria-hidden="true" className="size-6 text-emerald-600" />
        {S.thanksTitle}
      </h2>
      <p className="text-muted-foreground">{form.thank_you || S.thanks(form.business.name)}</p>
      <Button variant="outline" onClick={onAgain}>
        {S.sendAnother}
      </Button>
    </div>
  );
}

export function QrFormView({
  form,
  onSubmit,
  preview = false,
}: {
  form: TPublicQrForm;
  /** Sends the answers; a failure's errors are put on the form. Not given in the preview. */
  onSubmit?: (body: TQrSubmission) => Promise<void>;
  preview?: boolean;
}) {
  const answers = useForm<TAnswers>({ defaultValues: defaults(form), mode: 'onTouched' });
  const [sent, setSent] = useState(false);
  const { errors, isSubmitting } = answers.formState;
  const channels = offeredChannels(form);
  const Heading = preview ? 'h3' : 'h1';

  const submit = answers.handleSubmit(async (values) => {
    if (!onSubmit) return;
    try {
      await onSubmit(toSubmission(form, values));
      setSent(true);
    } catch (error) {
      const paths = [
        ...form.fields.map((f) => qrAnswerKey(f.name)),
        ...channels.map((c) => `consent.${c}`),
      ] as FieldPath<TAnswers>[];
      applyApiErrorToForm(answers, paths, error);
    }
  });

  return (
    <div className="grid gap-6">
      <header className="grid gap-2">
        <p className="text-sm font-medium text-muted-foreground">{form.business.name}</p>
        <Heading className={cn('font-semibold tracking-tight', preview ? 'text-xl' : 'text-2xl')}>
          {form.title}
        </Heading>
        {form.description ? (
          <p className="whitespace-pre-line text-muted-foreground">{form.description}</p>
        ) : null}
      </header>
      {sent ? (
        <Thanks
          form={form}
          onAgain={() => {
            answers.reset(defaults(form));
            setSent(false);
          }}
        />
      ) : (
        <form
          noValidate
          aria-label={form.title}
          onSubmit={(event) => void submit(event)}
          className="grid gap-5"
        >
          <FormAlert message={errors.root?.server?.message} />
          {form.fields.map((field) => (
            <FieldInput key={field.name} field={field} form={answers} />
          ))}
          {channels.length > 0 ? (
            <fieldset className="grid gap-3 rounded-lg border p-4">
              <legend className="px-1 text-sm font-medium">{S.consentLegend}</legend>
              <p className="text-xs text-muted-foreground">{S.consentHint}</p>
              {channels.map((channel) => (
                <CheckboxRow
                  key={channel}
                  label={QR_CONSENT_WORDING[channel](form.business.name)}
                  registration={answers.register(`consent.${channel}`)}
                  error={errors.consent?.[channel]?.message}
                />
              ))}
            </fieldset>
          ) : null}
          {preview ? (
            <div className="grid gap-2">
              <Button type="button" size="lg" disabled>
                {S.submit}
              </Button>
              <p className="text-xs text-muted-foreground">{S.previewNote}</p>
            </div>
          ) : (
            <Button type="submit" size="lg" disabled={isSubmitting}>
              {isSubmitting ? S.submitting : S.submit}
            </Button>
          )}
        </form>
      )}
    </div>
  );
}
