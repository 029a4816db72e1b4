// The business-wide allowed origins: edit the list, then save it (PUT /api/msg/widget-settings/).
import type { TWidgetSettings } from '@titan/contracts';
import type { FormEvent } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useUpdateWidgetSettings } from '../api/update-widget-settings';
import { CHAT_GROUPS_STRINGS, EMBED_STRINGS } from '../strings';
import { commitOriginDraft, OriginsEditor, useOriginDraft } from './origins-editor';

type TOriginsValues = { allowed_origins: string[] };

export function WidgetOriginsForm({ settings }: { settings: TWidgetSettings }) {
  const form = useForm<TOriginsValues>({ defaultValues: { allowed_origins: settings.allowed_origins } });
  const update = useUpdateWidgetSettings();
  const { errors, isSubmitting, isDirty } = form.formState;
  const draft = useOriginDraft();
  const pending = draft.text.trim() !== '';
  const unsaved = useUnsavedChanges(isDirty || pending);

  const save = form.handleSubmit(async ({ allowed_origins }) => {
    try {
      const saved = await update.mutateAsync({ allowed_origins });
      form.reset({ allowed_origins: saved.allowed_origins });
      toast.success(EMBED_STRINGS.originsSaved);
    } catch (error) {
      applyApiErrorToForm(
        form,
        ['allowed_origins', ...allowed_origins.map((_, i) => `allowed_origins.${i}` as const)],
        error,
      );
    }
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const current = form.getValues('allowed_origins');
    const origins = commitOriginDraft(draft, current);
    if (!origins) return;
    if (origins !== current) form.setValue('allowed_origins', origins, { shouldDirty: true });
    void save(event);
  };

  return (
    <form
      noValidate
      aria-label={CHAT_GROUPS_STRINGS.origins.title}
      onSubmit={onSubmit}
      className="grid max-w-xl gap-4"
    >
      {unsaved.dialog}
      <FormAlert message={errors.root?.server?.message} />
      <Controller
        control={form.control}
        name="allowed_origins"
        render={({ field }) => (
          <OriginsEditor
            value={field.value}
            onChange={field.onChange}
            hint={CHAT_GROUPS_STRINGS.origins.businessHint}
            error={errors.allowed_origins?.message}
            itemErrors={field.value.map((_, index) => errors.allowed_origins?.[index]?.message)}
            draft={draft}
          />
        )}
      />
      <div>
        <Button type="submit" disabled={isSubmitting || (!isDirty && !pending)}>
          {isSubmitting ? EMBED_STRINGS.saving : EMBED_STRINGS.save}
        </Button>
      </div>
    </form>
  );
}
