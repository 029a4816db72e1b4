// Once the 24-hour window has closed, only an approved template restarts a WhatsApp conversation:
// pick one, fill its header, body and URL-button parameters ({{1}} or named), check the rendered
// preview, send. "New conversation" uses the same form with a number for its target.
import type { TMessage, TWhatsappTemplate } from '@titan/contracts';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';

import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { NativeSelect } from '../../../components/ui/native-select';
import { Spinner } from '../../../components/ui/spinner';
import { TEMPLATES_PATH } from '../../../config/paths';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useWhatsappTemplates } from '../../../lib/whatsapp/templates';
import { useSendWhatsappTemplate } from '../api/send-whatsapp-template';
import { CONVERSATIONS_STRINGS as S } from '../strings';
import {
  fillPlaceholders,
  isComplete,
  templateComponents,
  templateForm,
  type TTemplateAnswers,
  type TTemplateField,
} from '../utils/whatsapp-template';
import { sendFailureMessage } from '../utils/send-failure';

const NO_ANSWERS: TTemplateAnswers = { values: {}, headerLink: '' };

function LabelledInput({
  label,
  value,
  onChange,
  type = 'text',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: 'text' | 'url';
}) {
  const id = useId();
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id} className="text-xs">
        {label}
      </Label>
      <Input id={id} type={type} value={value} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

function fieldLabel(field: TTemplateField): string {
  switch (field.component) {
    case 'header':
      return S.headerParameter(field.name);
    case 'body':
      return S.bodyParameter(field.name);
    case 'button':
      return S.buttonParameter(field.text);
    default: {
      const unreachable: never = field;
      return unreachable;
    }
  }
}

/** Where a template goes: an existing WhatsApp conversation, or a number (which opens one). */
export type TTemplateTarget = { conversation_id: number } | { to: string };

function TemplateForm({
  target,
  template,
  onSent,
}: {
  target: TTemplateTarget;
  template: TWhatsappTemplate;
  onSent: (message: TMessage) => void;
}) {
  const form = templateForm(template);
  const previewId = useId();
  const [answers, setAnswers] = useState<TTemplateAnswers>(NO_ANSWERS);
  const send = useSendWhatsappTemplate();
  const valueOf = (component: 'header' | 'body') => (name: string) => answers.values[`${component}:${name}`];
  const complete = isComplete(form, answers);

  const submit = () => {
    if (!complete || send.isPending) return;
    send.mutate(
      {
        ...target,
        name: template.name,
        language: template.language,
        components: templateComponents(form, answers),
      },
      {
        onSuccess: onSent,
        onError: (error) => {
          const message = sendFailureMessage(error);
          if (message) toast.error(message);
        },
      },
    );
  };

  return (
    <>
      {form.headerMedia ? (
        <LabelledInput
          type="url"
          label={S.headerLink[form.headerMedia]}
          value={answers.headerLink}
          onChange={(headerLink) => setAnswers((current) => ({ ...current, headerLink }))}
        />
      ) : null}
      {form.fields.length > 0 ? (
        <div className="grid gap-2 sm:grid-cols-2">
          {form.fields.map((field) => (
            <LabelledInput
              key={field.key}
              label={fieldLabel(field)}
              value={answers.values[field.key] ?? ''}
              onChange={(value) =>
                setAnswers((current) => ({ ...current, values: { ...current.values, [field.key]: value } }))
              }
            />
          ))}
        </div>
      ) : null}
      <figure aria-labelledby={previewId} className="grid gap-1">
        <figcaption id={previewId} className="text-xs font-medium text-muted-foreground">
          {S.preview}
        </figcaption>
        <div className="grid gap-1 rounded-md bg-muted px-3 py-2 text-sm">
          {form.headerText ? (
            <p className="font-semibold break-words">
              {fillPlaceholders(form.headerText, valueOf('header'))}
            </p>
          ) : null}
          <p className="break-words whitespace-pre-wrap">
            {fillPlaceholders(form.bodyText ?? '', valueOf('body'))}
          </p>
        </div>
      </figure>
      <div>
        <Button type="button" disabled={!complete || send.isPending} onClick={submit}>
          {send.isPending ? <Spinner /> : null}
          {send.isPending ? S.sending : S.sendTemplate}
        </Button>
      </div>
    </>
  );
}

export function WhatsAppTemplatePicker({ conversationId }: { conversationId: number }) {
  return (
    <section aria-label={S.sendTemplateRegion} className="flex flex-col gap-3 border-t p-3">
      <p role="status" className="text-sm text-muted-foreground">
        {S.windowClosed}
      </p>
      <WhatsAppTemplateSender target={{ conversation_id: conversationId }} />
    </section>
  );
}

/** The template choice, its parameters, the preview and the send button, for any target. */
export function WhatsAppTemplateSender({
  target,
  onSent,
}: {
  target: TTemplateTarget;
  onSent?: (message: TMessage) => void;
}) {
  const selectId = useId();
  const templates = useWhatsappTemplates({ status: 'APPROVED' });
  const [selectedId, setSelectedId] = useState('');
  const selected = templates.data?.find((t) => String(t.id) === selectedId) ?? null;

  const content = () => {
    if (templates.isPending) return <Spinner />;
    if (templates.isError)
      return (
        <div role="alert" className="flex flex-wrap items-center gap-2 text-sm">
          <span>{apiErrorMessage(templates.error, S.templatesFailed)}</span>
          <Button variant="outline" size="sm" onClick={() => void templates.refetch()}>
            {S.retry}
          </Button>
        </div>
      );
    if (templates.data.length === 0)
      return (
        <p className="text-sm text-muted-foreground">
          {S.noTemplates}{' '}
          <Link to={TEMPLATES_PATH} className="font-medium text-foreground underline underline-offset-4">
            {S.openTemplates}
          </Link>
        </p>
      );
    return (
      <>
        <div className="grid gap-1.5">
          <Label htmlFor={selectId} className="text-xs">
            {S.template}
          </Label>
          <NativeSelect
            id={selectId}
            value={selectedId}
            onChange={(event) => setSelectedId(event.target.value)}
          >
            <option value="">{S.chooseTemplate}</option>
            {templates.data.map((template) => (
              <option key={template.id} value={String(template.id)}>
                {S.templateOption(template.name, template.language)}
              </option>
            ))}
          </NativeSelect>
        </div>
        {selected ? (
          <TemplateForm
            key={selected.id}
            target={target}
            template={selected}
            onSent={(message) => {
              setSelectedId('');
              onSent?.(message);
            }}
          />
        ) : null}
      </>
    );
  };

  return <>{content()}</>;
}
