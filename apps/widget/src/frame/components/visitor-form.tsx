// The group's pre-chat form: its fields, types and required flags, with errors on each field.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { TVisitorFormField } from '@titan/contracts';
import { ApiError, errorText } from '../api';
import {
  formFieldErrors,
  validateVisitorForm,
  visitorDetails,
  type TFormValues,
  type TVisitorDetails,
} from '../state';
import { useT } from '../i18n';

type Props = {
  fields: TVisitorFormField[];
  initial: TFormValues;
  greeting: string;
  focusKey: number;
  onSubmit(details: TVisitorDetails): Promise<void>;
};

const INPUT_TYPES: Record<string, string> = { email: 'email', phone: 'tel', number: 'number', text: 'text' };

export function VisitorForm({ fields, initial, greeting, focusKey, onSubmit }: Props) {
  const [values, setValues] = useState<TFormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const tr = useT();
  const { t } = tr;

  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [focusKey]);

  const focusField = (name: string | undefined) => {
    if (name) formRef.current?.querySelector<HTMLElement>(`#f-${name}`)?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateVisitorForm(fields, values, {
      required: t('field_required'),
      invalidEmail: t('invalid_email'),
    });
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      focusField(fields.find((f) => found[f.name])?.name);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(visitorDetails(fields, values));
    } catch (err) {
      const fromServer = err instanceof ApiError && err.fields ? formFieldErrors(err.fields) : {};
      const onForm = fields.find((f) => fromServer[f.name]);
      if (onForm) {
        setErrors(fromServer);
        focusField(onForm.name);
      } else {
        setFormError(errorText(err, t('generic_error'), tr));
      }
      setBusy(false);
    }
  };

  const set = (name: string, value: string | boolean) => setValues((prev) => ({ ...prev, [name]: value }));

  return (
    <form ref={formRef} className="form" onSubmit={submit} noValidate aria-label={t('form_label')}>
      {greeting ? <p className="greeting">{greeting}</p> : null}
      <p className="muted">{t('form_intro')}</p>
      {fields.map((field) => {
        const id = `f-${field.name}`;
        const error = errors[field.name];
        const common = {
          id,
          name: field.name,
          required: field.required,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
        };
        const value = values[field.name];
        const text = typeof value === 'string' ? value : '';
        const label = (
          <>
            {field.label}
            {field.required ? (
              <span className="req" aria-hidden="true">
                {' '}
                *
              </span>
            ) : null}
          </>
        );
        return (
          <div className={field.type === 'checkbox' ? 'field check' : 'field'} key={field.name}>
            {field.type === 'checkbox' ? (
              <>
                <input
                  {...common}
                  type="checkbox"
                  checked={value === true}
                  onChange={(e) => set(field.name, e.target.checked)}
                />
                <label htmlFor={id}>{label}</label>
              </>
            ) : (
              <>
                <label htmlFor={id}>{label}</label>
                {field.type === 'textarea' ? (
                  <textarea
                    {...common}
                    rows={3}
                    value={text}
                    onChange={(e) => set(field.name, e.target.value)}
                  />
                ) : field.type === 'select' ? (
                  <select {...common} value={text} onChange={(e) => set(field.name, e.target.value)}>
                    <option value="">{t('select_placeholder')}</option>
                    {(field.options ?? []).map((option) => (
                      <option key={option} value={option}>
                        {option}
                      </option>
                    ))}
                  </select>
                ) : (
                  <input
                    {...common}
                    type={INPUT_TYPES[field.type] ?? 'text'}
                    autoComplete={
                      field.name === 'name' ? 'name' : field.type === 'email' ? 'email' : undefined
                    }
                    value={text}
                    onChange={(e) => set(field.name, e.target.value)}
                  />
                )}
              </>
            )}
            {error ? (
              <p className="error" id={`${id}-error`}>
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      {formError ? (
        <p className="error" role="alert">
          {formError}
        </p>
      ) : null}
      <button className="primary" type="submit" disabled={busy}>
        {t('start_chat')}
      </button>
    </form>
  );
}
