// A group's allowed origins inside the group form, with the form's and the server's errors.
import { Controller } from 'react-hook-form';

import type { TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS } from '../strings';
import { OriginsEditor, type TOriginDraft } from './origins-editor';

export function GroupOriginsField({ form, draft }: { form: TGroupForm; draft?: TOriginDraft }) {
  const errors = form.formState.errors.allowed_origins;
  return (
    <Controller
      control={form.control}
      name="allowed_origins"
      render={({ field }) => (
        <OriginsEditor
          value={field.value}
          onChange={field.onChange}
          hint={CHAT_GROUPS_STRINGS.origins.groupHint}
          error={errors?.message}
          itemErrors={field.value.map((_, index) => errors?.[index]?.message)}
          draft={draft}
        />
      )}
    />
  );
}
