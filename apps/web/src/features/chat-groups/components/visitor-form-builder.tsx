// The visitor form of a group: fields to add, remove and reorder, each with a label, a name (following
// the label until someone types one), a type, a required flag, and a select's options.
import { VISITOR_FIELD_TYPES } from '@titan/contracts';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import { useFieldArray, useWatch } from 'react-hook-form';

import { SelectField } from '../../../components/form/select-field';
import { TextareaField } from '../../../components/form/textarea-field';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import type { TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS, VISITOR_FIELD_TYPE_LABELS } from '../strings';
import { newFieldDraft, VISITOR_FIELDS_MAX } from '../utils/group-form';
import { fieldNameFromLabel } from '../utils/slug';

const S = CHAT_GROUPS_STRINGS.visitorForm;
const TYPE_OPTIONS = VISITOR_FIELD_TYPES.map((type) => ({
  value: type,
  label: VISITOR_FIELD_TYPE_LABELS[type],
}));

export function VisitorFormBuilder({ form }: { form: TGroupForm }) {
  const { control, register, setValue, getValues } = form;
  const { errors, isSubmitted } = form.formState;
  const { fields, append, remove, move } = useFieldArray({ control, name: 'visitor_form' });
  const drafts = useWatch({ control, name: 'visitor_form' });
  const listError = errors.visitor_form?.root?.message ?? errors.visitor_form?.message;

  return (
    <div className="grid gap-4">
      {fields.length === 0 ? <p className="text-sm text-muted-foreground">{S.none}</p> : null}
      {fields.map((field, index) => {
        const number = index + 1;
        const fieldErrors = errors.visitor_form?.[index];
        const type = drafts[index]?.type ?? field.type;
        return (
          <fieldset key={field.id} className="grid gap-3 rounded-lg border p-4">
            <legend className="px-1 text-sm font-medium">{S.field(number)}</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label={S.label}
                autoComplete="off"
                registration={register(`visitor_form.${index}.label`, {
                  onChange: (event: { target: { value: string } }) => {
                    if (!getValues(`visitor_form.${index}.autoName`)) return;
                    setValue(`visitor_form.${index}.name`, fieldNameFromLabel(event.target.value), {
                      shouldValidate: isSubmitted,
                    });
                  },
                })}
                error={fieldErrors?.label?.message}
              />
              <TextField
                label={S.name}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                registration={register(`visitor_form.${index}.name`, {
                  onChange: () => setValue(`visitor_form.${index}.autoName`, false),
                })}
                error={fieldErrors?.name?.message}
              />
              <SelectField
                label={S.type}
                options={TYPE_OPTIONS}
                registration={register(`visitor_form.${index}.type`)}
                error={fieldErrors?.type?.message}
              />
              <label className="flex items-center gap-2 self-end pb-2 text-sm">
                <input type="checkbox" {...register(`visitor_form.${index}.required`)} />
                {S.required}
              </label>
            </div>
            {type === 'select' ? (
              <TextareaField
                label={S.options}
                rows={3}
                hint={S.optionsHint}
                registration={register(`visitor_form.${index}.options`)}
                error={fieldErrors?.options?.message}
              />
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-label={S.moveUp(number)}
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
              >
                <ArrowUpIcon aria-hidden="true" />
              </Button>
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-label={S.moveDown(number)}
                disabled={index === fields.length - 1}
                onClick={() => move(index, index + 1)}
              >
                <ArrowDownIcon aria-hidden="true" />
              </Button>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                aria-label={S.remove(number)}
                className="ml-auto text-destructive"
                onClick={() => remove(index)}
              >
                <Trash2Icon aria-hidden="true" />
              </Button>
            </div>
          </fieldset>
        );
      })}
      {listError ? <p className="text-sm text-destructive">{listError}</p> : null}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={fields.length >= VISITOR_FIELDS_MAX}
          onClick={() => append(newFieldDraft())}
        >
          <PlusIcon aria-hidden="true" />
          {S.add}
        </Button>
      </div>
    </div>
  );
}
