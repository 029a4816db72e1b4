// A group's AI first responder (issue 33): when it answers, on which channels, when it hands the
// conversation to a person (answers in a row, the confidence it needs, human-only topics), its
// monthly token budget and the outside tools it may call. Checked by the contract before sending,
// sent as `ai_responder` on save.
import { AI_RESPONDER_CHANNELS, AI_RESPONDER_MODES } from '@titan/contracts';

import { SelectField } from '../../../components/form/select-field';
import { NumberField } from '../../../components/form/number-field';
import { TextareaField } from '../../../components/form/textarea-field';
import type { TGroupForm } from '../hooks/use-group-form';
import { AiResponderTools } from './ai-responder-tools';
import { CHAT_GROUPS_STRINGS } from '../strings';

const S = CHAT_GROUPS_STRINGS.aiResponder;

export function AiResponderFields({ form }: { form: TGroupForm }) {
  const errors = form.formState.errors.ai_responder;
  const off = form.watch('ai_responder.mode') === 'off';
  return (
    <div className="grid gap-4">
      <SelectField
        label={S.mode}
        registration={form.register('ai_responder.mode')}
        options={AI_RESPONDER_MODES.map((mode) => ({ value: mode, label: S.modes[mode] }))}
        error={errors?.mode?.message}
      />
      <fieldset className="grid gap-2" disabled={off}>
        <legend className="text-sm font-medium">{S.channels}</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {AI_RESPONDER_CHANNELS.map((channel) => (
            <label key={channel} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4"
                value={channel}
                {...form.register('ai_responder.channels')}
              />
              {S.channelNames[channel]}
            </label>
          ))}
        </div>
        {errors?.channels?.message ? (
          <p className="text-sm text-destructive">{errors.channels.message}</p>
        ) : null}
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberField
          label={S.maxTurns}
          min={1}
          max={50}
          hint={S.maxTurnsHint}
          disabled={off}
          register={form.register}
          name="ai_responder.handoff.max_turns"
          error={errors?.handoff?.max_turns?.message}
        />
        <NumberField
          decimal
          label={S.minConfidence}
          min={0}
          max={1}
          step={0.05}
          hint={S.minConfidenceHint}
          disabled={off}
          register={form.register}
          name="ai_responder.handoff.min_confidence"
          error={errors?.handoff?.min_confidence?.message}
        />
      </div>
      <TextareaField
        label={S.topics}
        hint={S.topicsHint}
        rows={3}
        disabled={off}
        registration={form.register('ai_responder.handoff.human_only_topics')}
        error={errors?.handoff?.human_only_topics?.message}
      />
      <NumberField
        label={S.budget}
        min={0}
        hint={S.budgetHint}
        disabled={off}
        register={form.register}
        name="ai_responder.monthly_token_budget"
        error={errors?.monthly_token_budget?.message}
      />
      <AiResponderTools form={form} disabled={off} />
    </div>
  );
}
