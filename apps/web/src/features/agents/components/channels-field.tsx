// The channels the agent may use, each with its template (email: the business's templates or none —
// the agent writes the mail; WhatsApp: an approved template; SMS: none) and an optional sender.
import { AGENT_CHANNELS, type TAgentChannel } from '@titan/contracts';
import { useWatch, type UseFormReturn } from 'react-hook-form';

import { SelectField } from '../../../components/form/select-field';
import { TextField } from '../../../components/form/text-field';
import { useWhatsappTemplates } from '../../../lib/whatsapp/templates';
import { useEmailTemplateOptions } from '../api/audience-options';
import { AGENT_STRINGS } from '../strings';
import type { TAgentForm } from '../utils/agent-form';
import { CheckboxRow, Section } from './section';

const E = AGENT_STRINGS.editor;
const C = AGENT_STRINGS.channels;

function TemplateSelect({
  form,
  channel,
  disabled,
}: {
  form: UseFormReturn<TAgentForm>;
  channel: 'email' | 'whatsapp';
  disabled: boolean;
}) {
  const email = useEmailTemplateOptions();
  const whatsapp = useWhatsappTemplates({ status: 'APPROVED' });
  const query = channel === 'email' ? email : whatsapp;
  const current = form.getValues(`channels.${channel}.template_id`);
  const options = [
    { value: '', label: channel === 'email' ? E.templateNone : E.templateNoneWhatsapp },
    ...(channel === 'email'
      ? (email.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))
      : (whatsapp.data ?? []).map((t) => ({ value: String(t.id), label: `${t.name} (${t.language})` }))),
  ];
  // A template chosen earlier but not (yet) listed keeps its option, so the value is not lost.
  if (current && !options.some((o) => o.value === current))
    options.push({ value: current, label: `#${current}` });
  return (
    <div className="grid gap-1">
      <SelectField
        label={E.template(C[channel])}
        options={options}
        disabled={disabled}
        registration={form.register(`channels.${channel}.template_id`)}
        error={form.formState.errors.channels?.[channel]?.template_id?.message}
      />
      {query.isError ? <p className="text-xs text-destructive">{E.templatesFailed}</p> : null}
      {channel === 'whatsapp' ? (
        <p className="text-xs text-muted-foreground">{E.whatsappNeedsTemplate}</p>
      ) : null}
    </div>
  );
}

export function ChannelsField({
  form,
  error,
  disabled,
}: {
  form: UseFormReturn<TAgentForm>;
  error: string | undefined;
  disabled: boolean;
}) {
  const channels = useWatch({ control: form.control, name: 'channels' });
  const set = (channel: TAgentChannel, on: boolean) =>
    form.setValue(`channels.${channel}.enabled`, on, { shouldDirty: true });
  return (
    <Section title={E.channelsTitle} hint={E.channelsHint} error={error}>
      {AGENT_CHANNELS.map((channel) => (
        <div key={channel} className="grid gap-3">
          <CheckboxRow
            checked={channels[channel].enabled}
            disabled={disabled}
            onChange={(on) => set(channel, on)}
            label={E.sendBy(C[channel])}
          />
          {channels[channel].enabled ? (
            <div className="grid gap-3 border-l-2 pl-4 sm:grid-cols-2">
              {channel === 'sms' ? (
                <p className="text-sm text-muted-foreground">{E.smsNoTemplates}</p>
              ) : (
                <TemplateSelect form={form} channel={channel} disabled={disabled} />
              )}
              <TextField
                label={E.from(C[channel])}
                hint={E.fromHint[channel]}
                type={channel === 'email' ? 'email' : 'tel'}
                disabled={disabled}
                registration={form.register(`channels.${channel}.from`)}
                error={form.formState.errors.channels?.[channel]?.from?.message}
              />
            </div>
          ) : null}
        </div>
      ))}
    </Section>
  );
}
