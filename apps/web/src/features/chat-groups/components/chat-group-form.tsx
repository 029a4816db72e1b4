// Create or edit a chat group: name and slug (suggested from the name while creating), look, allowed
// origins, visitor form, auto-assignment and the AI first responder. The contract validates before sending; the server's errors land on fields.
import type { TChatGroupSettings } from '@titan/contracts';
import { useState, type FormEvent } from 'react';

import { useUnsavedChanges } from '../../../components/unsaved-changes';
import { FormAlert } from '../../../components/form/form-alert';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { applyApiErrorToForm } from '../../../lib/api-errors';
import { useCreateChatGroup } from '../api/create-chat-group';
import { useUpdateChatGroup } from '../api/update-chat-group';
import { useGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS } from '../strings';
import { groupFormFieldPaths } from '../utils/group-form';
import { slugFromName } from '../utils/slug';
import { AiResponderFields } from './ai-responder-fields';
import { AppearanceFields } from './appearance-fields';
import { AssignmentFields } from './assignment-fields';
import { BusinessHoursFields } from './business-hours-fields';
import { ServiceLevelFields } from './service-level-fields';
import { FormSection } from './form-section';
import { GroupOriginsField } from './group-origins-field';
import { commitOriginDraft, useOriginDraft } from './origins-editor';
import { VisitorFormBuilder } from './visitor-form-builder';

const S = CHAT_GROUPS_STRINGS;

export function ChatGroupForm({
  group,
  onSaved,
  onCancel,
}: {
  group?: TChatGroupSettings;
  onSaved: (group: TChatGroupSettings) => void;
  onCancel: () => void;
}) {
  const form = useGroupForm(group);
  const create = useCreateChatGroup();
  const update = useUpdateChatGroup();
  // A new group's slug follows its name until someone types a slug; a saved slug never moves by itself.
  const [slugFollowsName, setSlugFollowsName] = useState(!group);
  const { errors, isSubmitting, isSubmitted } = form.formState;
  const draft = useOriginDraft();
  const unsaved = useUnsavedChanges(form.formState.isDirty || draft.text.trim() !== '');

  const save = form.handleSubmit(async (request) => {
    try {
      const saved = group
        ? await update.mutateAsync({ id: group.id, ...request })
        : await create.mutateAsync(request);
      form.reset(form.getValues());
      unsaved.release();
      onSaved(saved);
    } catch (error) {
      applyApiErrorToForm(form, groupFormFieldPaths(form.getValues()), error);
    }
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // An origin typed but not added is added now, or the save is refused with its field named.
    const current = form.getValues('allowed_origins');
    const origins = commitOriginDraft(draft, current);
    if (!origins) return;
    if (origins !== current) form.setValue('allowed_origins', origins, { shouldDirty: true });
    void save(event);
  };

  return (
    <form noValidate aria-label={S.form.label} onSubmit={onSubmit} className="grid gap-6">
      {unsaved.dialog}
      <FormAlert message={errors.root?.server?.message} />
      <FormSection title={S.form.detailsTitle}>
        <div className="grid max-w-xl gap-4">
          <TextField
            label={S.form.name}
            autoComplete="off"
            registration={form.register('name', {
              onChange: (event: { target: { value: string } }) => {
                if (slugFollowsName)
                  form.setValue('slug', slugFromName(event.target.value), { shouldValidate: isSubmitted });
              },
            })}
            error={errors.name?.message}
          />
          <TextField
            label={S.form.slug}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            hint={group ? S.form.slugHint : S.form.slugHintNew}
            registration={form.register('slug', {
              onChange: (event: { target: { value: string } }) =>
                setSlugFollowsName(!group && event.target.value === ''),
            })}
            error={errors.slug?.message}
          />
        </div>
      </FormSection>
      <FormSection title={S.assignment.title} description={S.assignment.description}>
        <div className="max-w-xl">
          <AssignmentFields form={form} />
        </div>
      </FormSection>
      <FormSection title={S.aiResponder.title} description={S.aiResponder.description}>
        <div className="max-w-xl">
          <AiResponderFields form={form} />
        </div>
      </FormSection>
      <FormSection title={S.hours.title} description={S.hours.description}>
        <div className="max-w-xl">
          <BusinessHoursFields form={form} />
        </div>
      </FormSection>
      <FormSection title={S.serviceLevels.title} description={S.serviceLevels.description}>
        <div className="max-w-xl">
          <ServiceLevelFields form={form} />
        </div>
      </FormSection>
      <FormSection title={S.appearance.title}>
        <div className="max-w-xl">
          <AppearanceFields form={form} />
        </div>
      </FormSection>
      <FormSection title={S.origins.title}>
        <div className="max-w-xl">
          <GroupOriginsField form={form} draft={draft} />
        </div>
      </FormSection>
      <FormSection title={S.visitorForm.title} description={S.visitorForm.description}>
        <VisitorFormBuilder form={form} />
      </FormSection>
      <div className="flex gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? S.form.saving : group ? S.form.save : S.form.create}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          {S.form.cancel}
        </Button>
      </div>
    </form>
  );
}
