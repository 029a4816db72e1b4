// The fields of a visitor form — a chat group's, a QR form's: added, removed and reordered, each with
// a label, a name (following the label until someone types one), a type, a required flag, and a
// select's options. Each feature keeps its own words and the form's array under its own key.
import { VISITOR_FIELD_TYPES, type TVisitorFormField } from '@titan/contracts';
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, Trash2Icon } from 'lucide-react';
import {
  get,
  useFieldArray,
  useWatch,
  type ArrayPath,
  type FieldError,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormReturn,
} from 'react-hook-form';

import { fieldNameFromLabel, newVisitorFieldDraft, type TVisitorFieldDraft } from '../../lib/visitor-fields';
import { Button } from '../ui/button';
import { SelectField } from './select-field';
import { TextareaField } from './textarea-field';
import { TextField } from './text-field';

export type TVisitorFieldsStrings = {
  field: (n: number) => string;
  label: string;
  name: string;
  type: string;
  required: string;
  options: string;
  optionsHint: string;
  add: string;
  moveUp: (n: number) => string;
  moveDown: (n: number) => string;
  remove: (n: number) => string;
  /** Shown when the form has no field (where none is allowed). */
  none?: string;
};

type TProps<T extends FieldValues, TOut extends FieldValues> = {
  form: UseFormReturn<T, unknown, TOut>;
  /** The form's array of TVisitorFieldDraft. */
  name: ArrayPath<T>;
  strings: TVisitorFieldsStrings;
  typeLabels: Record<TVisitorFormField['type'], string>;
  max: number;
  /** The fewest fields the form may keep (a QR form needs one). */
  min?: number;
  /** An error on the whole list of fields. */
  listError?: string | undefined;
};

type TDraftErrors = Partial<Record<keyof TVisitorFieldDraft, FieldError>>;

export function VisitorFieldsBuilder<T extends FieldValues, TOut extends FieldValues = T>({
  form,
  name,
  strings: S,
  typeLabels,
  max,
  min = 0,
  listError,
}: TProps<T, TOut>) {
  const { control, register, setValue, getValues } = form;
  const { errors, isSubmitted } = form.formState;
  const { fields, append, remove, move } = useFieldArray({ control, name });
  const drafts = useWatch({ control, name: name as unknown as Path<T> }) as TVisitorFieldDraft[] | undefined;
  const at = (index: number, key: keyof TVisitorFieldDraft) => `${name}.${index}.${key}` as Path<T>;
  const typeOptions = VISITOR_FIELD_TYPES.map((type) => ({ value: type, label: typeLabels[type] }));

  return (
    <div className="grid gap-4">
      {fields.length === 0 && S.none ? <p className="text-sm text-muted-foreground">{S.none}</p> : null}
      {fields.map((field, index) => {
        const number = index + 1;
        const fieldErrors = get(errors, `${name}.${index}`) as TDraftErrors | undefined;
        const type = drafts?.[index]?.type ?? (field as unknown as TVisitorFieldDraft).type;
        return (
          <fieldset key={field.id} className="grid gap-3 rounded-lg border p-4">
            <legend className="px-1 text-sm font-medium">{S.field(number)}</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label={S.label}
                autoComplete="off"
                registration={register(at(index, 'label'), {
                  onChange: (event: { target: { value: string } }) => {
                    if (!getValues(at(index, 'autoName'))) return;
                    const suggested = fieldNameFromLabel(event.target.value) as PathValue<T, Path<T>>;
                    setValue(at(index, 'name'), suggested, { shouldValidate: isSubmitted });
                  },
                })}
                error={fieldErrors?.label?.message}
              />
              <TextField
                label={S.name}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                registration={register(at(index, 'name'), {
                  onChange: () => setValue(at(index, 'autoName'), false as PathValue<T, Path<T>>),
                })}
                error={fieldErrors?.name?.message}
              />
              <SelectField
                label={S.type}
                options={typeOptions}
                registration={register(at(index, 'type'))}
                error={fieldErrors?.type?.message}
              />
              <label className="flex items-center gap-2 self-end pb-2 text-sm">
                <input type="checkbox" className="size-4" {...register(at(index, 'required'))} />
                {S.required}
              </label>
            </div>
            {type === 'select' ? (
              <TextareaField
                label={S.options}
                rows={3}
                hint={S.optionsHint}
                registration={register(at(index, 'options'))}
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
                disabled={fields.length <= min}
                onClick={() => remove(index)}
              >
                <Trash2Icon aria-hidden="true" />
              </Button>
            </div>
          </fieldset>
        );
      })}
      {listError ? (
        <p role="alert" className="text-sm text-destructive">
          {listError}
        </p>
      ) : null}
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={fields.length >= max}
          onClick={() => append(newVisitorFieldDraft() as Parameters<typeof append>[0])}
        >
          <PlusIcon aria-hidden="true" />
          {S.add}
        </Button>
      </div>
    </div>
  );
}
