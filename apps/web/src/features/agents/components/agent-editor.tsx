// The agent screen's form, one for create and edit: about the agent, what it does, who it writes to,
// channels, tools, limits, how messages go out, quiet hours and when it runs. Saving an existing
// agent writes only what changed: its name and description (PUT), a new config version
// (update-agent-config) and its schedule (PUT …/schedule/). The browser checks with the server's
// schemas first; any refusal, the browser's or the server's, shows at its field.
import { MARKETING_CONSENT_MODES, type TAgent, type TAgentTool, type TSegmentFilter } from '@titan/contracts';
import { useState, type ReactNode } from 'react';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { TextareaField } from '../../../components/form/textarea-field';
import { NumberField } from '../../../components/form/number-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { agentPath } from '../../../config/paths';
import {
  describeApiFailure,
  FORM_ERROR_KEY,
  NON_FIELD_ERRORS,
  reportApiError,
} from '../../../lib/api-errors';
import { useCreateAgent } from '../api/create-agent';
import { useSaveAgentSchedule } from '../api/save-agent-schedule';
import { useUpdateAgent } from '../api/update-agent';
import { useUpdateAgentConfig } from '../api/update-agent-config';
import { AGENT_STRINGS } from '../strings';
import {
  agentToForm,
  checkAgentForm,
  enabledChannels,
  formPathOf,
  formSchedule,
  formToConfig,
  LIMIT_KEYS,
  type TAgentForm,
  type TFieldErrorMap,
} from '../utils/agent-form';
import { AudienceField } from './audience-field';
import { ChannelsField } from './channels-field';
import { CheckboxRow, Section } from './section';
import { ScheduleField } from './schedule-field';
import { ToolsField } from './tools-field';

const E = AGENT_STRINGS.editor;
const SEND_MODES = ['review', 'auto', 'dry_run'] as const;
const CONSENT_MODES = MARKETING_CONSENT_MODES;

export function AgentEditor({
  agent,
  canWrite,
  renderActions,
  defaultTimeZone,
}: {
  agent: TAgent | null;
  canWrite: boolean;
  /** The zone a schedule starts in when the agent has none (the business's). */
  defaultTimeZone?: string;
  /** The agent's own actions (activate, run now…), told whether unsaved changes are pending. */
  renderActions?: (dirty: boolean) => ReactNode;
}) {
  const initial = agentToForm(agent, defaultTimeZone);
  const form = useForm<TAgentForm>({ defaultValues: initial.values });
  const [tools, setTools] = useState<TAgentTool[]>(initial.extras.tools);
  const [segment, setSegment] = useState<TSegmentFilter | undefined>(initial.extras.segment);
  const [baseline, setBaseline] = useState(() => snapshot(initial.values, initial.extras));
  const navigate = useNavigate();
  const create = useCreateAgent();
  const update = useUpdateAgent();
  const updateConfig = useUpdateAgentConfig();
  const saveSchedule = useSaveAgentSchedule();
  const { errors, isSubmitting } = form.formState;
  const disabled = !canWrite;

  const values = useWatch({ control: form.control }) as TAgentForm;
  const current = snapshot(values, { tools, segment });
  const dirty = current.all !== baseline.all;
  const unsaved = useUnsavedChanges(dirty && canWrite);

  /** Puts errors keyed like the request on the form; answers whether any was placed. */
  const showErrors = (fieldErrors: TFieldErrorMap, prefix = '') => {
    const channels = enabledChannels(form.getValues());
    let first: string | null = null;
    for (const [key, messages] of Object.entries(fieldErrors)) {
      const message = messages[0];
      if (!message) continue;
      const path = key === NON_FIELD_ERRORS ? FORM_ERROR_KEY : formPathOf(`${prefix}${key}`, channels);
      form.setError(path as FieldPath<TAgentForm>, { type: 'server', message });
      if (!path.startsWith('root.')) first ??= path;
    }
    if (first) form.setFocus(first as FieldPath<TAgentForm>);
    return Object.keys(fieldErrors).length > 0;
  };

  const showFailure = (error: unknown, prefix: string) => {
    const failure = describeApiFailure(error);
    if (failure.kind === 'handled') return;
    if (failure.kind === 'response' && failure.fieldErrors && showErrors(failure.fieldErrors, prefix)) return;
    if (failure.kind === 'response' && failure.status < 500 && failure.message) {
      form.setError(FORM_ERROR_KEY, { type: 'server', message: failure.message });
      return;
    }
    reportApiError(error, { toast: true });
  };

  const onSubmit = form.handleSubmit(async (v) => {
    const extras = { tools, segment };
    const problems = checkAgentForm(v, extras);
    if (Object.keys(problems).length > 0) {
      showErrors(problems);
      form.setError(FORM_ERROR_KEY, { type: 'client', message: E.fixErrors });
      return;
    }
    const config = formToConfig(v, extras);
    const schedule = formSchedule(v);
    const next = snapshot(v, extras);
    if (!agent) {
      let created: TAgent;
      try {
        created = await create.mutateAsync({
          name: v.name.trim(),
          description: v.description.trim(),
          status: 'draft',
          config,
        });
      } catch (error) {
        showFailure(error, '');
        return;
      }
      if (schedule) {
        try {
          await saveSchedule.mutateAsync({ id: created.id, schedule });
        } catch (error) {
          // The agent exists: its screen shows the schedule's error to fix there.
          reportApiError(error, { toast: true });
        }
      }
      toast.success(E.created);
      unsaved.release();
      void navigate(agentPath(created.id), { replace: true });
      return;
    }
    try {
      if (next.about !== baseline.about)
        await update.mutateAsync({ id: agent.id, name: v.name.trim(), description: v.description.trim() });
    } catch (error) {
      showFailure(error, '');
      return;
    }
    let version = agent.config?.version ?? null;
    try {
      if (next.config !== baseline.config) {
        const saved = await updateConfig.mutateAsync({ id: agent.id, config });
        version = saved.config?.version ?? version;
      }
    } catch (error) {
      showFailure(error, 'config.');
      return;
    }
    try {
      if (schedule && next.schedule !== baseline.schedule)
        await saveSchedule.mutateAsync({ id: agent.id, schedule });
    } catch (error) {
      showFailure(error, 'schedule.');
      return;
    }
    setBaseline(next);
    toast.success(version !== null && next.config !== baseline.config ? E.savedVersion(version) : E.saved);
  });

  const rootError = (key: string) =>
    (errors.root as Record<string, { message?: string }> | undefined)?.[key]?.message;

  return (
    <form
      noValidate
      aria-label={agent ? E.editTitle : E.newTitle}
      onSubmit={(event) => void onSubmit(event)}
      className="grid gap-6"
    >
      {unsaved.dialog}
      {renderActions?.(dirty)}
      <FormAlert message={errors.root?.server?.message} />
      <Section title={E.basics}>
        <TextField
          label={E.name}
          disabled={disabled}
          registration={form.register('name')}
          error={errors.name?.message}
        />
        <TextareaField
          label={E.description}
          hint={E.descriptionHint}
          rows={2}
          disabled={disabled}
          registration={form.register('description')}
          error={errors.description?.message}
        />
      </Section>

      <Section title={E.task}>
        <TextareaField
          label={E.instructions}
          hint={E.instructionsHint}
          rows={8}
          disabled={disabled}
          registration={form.register('instructions')}
          error={errors.instructions?.message}
        />
        <TextField
          label={E.goal}
          hint={E.goalHint}
          disabled={disabled}
          registration={form.register('goal')}
          error={errors.goal?.message}
        />
        <TextField
          label={E.model}
          hint={E.modelHint}
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          registration={form.register('model')}
          error={errors.model?.message}
        />
      </Section>

      <AudienceField
        value={values.list_ids}
        onChange={(ids) => {
          form.setValue('list_ids', ids, { shouldDirty: true });
          form.clearErrors('list_ids');
        }}
        error={errors.list_ids?.message}
        segment={segment}
        onRemoveSegment={() => setSegment(undefined)}
        segmentError={rootError('segment')}
        disabled={disabled}
      />

      <ChannelsField form={form} error={rootError('channels')} disabled={disabled} />

      <ToolsField value={tools} onChange={setTools} error={rootError('tools')} disabled={disabled} />

      <Section title={E.limitsTitle}>
        <div className="grid gap-4 sm:grid-cols-2">
          {LIMIT_KEYS.map((key) => (
            <NumberField
              key={key}
              label={E.limits[key]}
              hint={E.limitsHint[key]}
              disabled={disabled}
              register={form.register}
              name={`limits.${key}`}
              error={errors.limits?.[key]?.message}
            />
          ))}
        </div>
      </Section>

      <Section title={E.sendModeTitle} error={errors.send_mode?.message}>
        <div role="radiogroup" aria-label={E.sendModeTitle} className="grid gap-3">
          {SEND_MODES.map((mode) => (
            <label key={mode} className="flex items-start gap-3 text-sm">
              <input
                type="radio"
                value={mode}
                className="mt-0.5 size-4 accent-primary"
                disabled={disabled}
                {...form.register('send_mode')}
              />
              <span className="grid gap-0.5">
                <span>{E.sendMode[mode].label}</span>
                <span className="text-xs text-muted-foreground">{E.sendMode[mode].hint}</span>
              </span>
            </label>
          ))}
        </div>
      </Section>

      <Section title={E.consentTitle} hint={E.consentNever} error={errors.consent_mode?.message}>
        <div role="radiogroup" aria-label={E.consentTitle} className="grid gap-3">
          {CONSENT_MODES.map((mode) => (
            <label key={mode} className="flex items-start gap-3 text-sm">
              <input
                type="radio"
                value={mode}
                className="mt-0.5 size-4 accent-primary"
                disabled={disabled}
                {...form.register('consent_mode')}
              />
              <span className="grid gap-0.5">
                <span>{E.consentMode[mode].label}</span>
                <span className="text-xs text-muted-foreground">{E.consentMode[mode].hint}</span>
              </span>
            </label>
          ))}
        </div>
      </Section>

      <Section title={E.quietTitle} hint={E.quietHint}>
        <CheckboxRow
          checked={values.quiet_enabled}
          disabled={disabled}
          onChange={(on) => form.setValue('quiet_enabled', on, { shouldDirty: true })}
          label={E.quietEnabled}
        />
        {values.quiet_enabled ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={E.quietStart}
              type="time"
              disabled={disabled}
              registration={form.register('quiet_start')}
              error={errors.quiet_start?.message}
            />
            <TextField
              label={E.quietEnd}
              type="time"
              disabled={disabled}
              registration={form.register('quiet_end')}
              error={errors.quiet_end?.message}
            />
          </div>
        ) : null}
      </Section>

      <ScheduleField
        form={form}
        hasSchedule={Boolean(agent?.schedule)}
        active={agent?.status === 'active'}
        error={rootError('schedule')}
        disabled={disabled}
      />

      {canWrite ? (
        <div className="sticky bottom-0 flex items-center justify-end gap-3 border-t bg-background/95 py-3">
          {dirty && agent ? <span className="text-sm text-muted-foreground">{E.unsavedChanges}</span> : null}
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? E.saving : agent ? E.save : E.create}
          </Button>
        </div>
      ) : null}
    </form>
  );
}

/** What saving compares: each part as JSON, so only the parts that changed are written. */
function snapshot(values: TAgentForm, extras: { tools: TAgentTool[]; segment: TSegmentFilter | undefined }) {
  const about = JSON.stringify([values.name.trim(), values.description.trim()]);
  const config = JSON.stringify(formToConfig(values, extras));
  const schedule = JSON.stringify(formSchedule(values));
  return { about, config, schedule, all: `${about}|${config}|${schedule}` };
}
