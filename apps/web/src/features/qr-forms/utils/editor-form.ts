// The QR form editor's model. People edit drafts (a select's options as lines of text, a flag that
// lets a new field's name follow its label); a draft becomes the save request, checked with the
// shared contract so the editor shows the server's own rules and messages before saving.
import {
  QR_FORM_CHANNELS,
  ZSaveQrSchemaRequest,
  type TPublicQrForm,
  type TQrFormField,
  type TQrSchema,
  type TSaveQrSchemaRequest,
} from '@titan/contracts';
import type { TVisitorFieldDraft } from '../../../lib/visitor-fields';

export type TEditorValues = {
  title: string;
  description: string;
  thank_you: string;
  slug: string;
  active: boolean;
  /** A static list's id, or '' for none (a select's value). */
  list_id: string;
  consent: TQrSchema['consent'];
  fields: TVisitorFieldDraft[];
};

export function toEditorValues(schema: TQrSchema): TEditorValues {
  return {
    title: schema.title,
    description: schema.description,
    thank_you: schema.thank_you,
    slug: schema.slug,
    active: schema.active,
    list_id: schema.list_id === null ? '' : String(schema.list_id),
    consent: { ...schema.consent },
    fields: schema.fields.map((field) => ({
      label: field.label,
      name: field.name,
      type: field.type,
      required: field.required,
      options: (field.options ?? []).join('\n'),
      // Saved names key the answers already collected: they never change by themselves.
      autoName: false,
    })),
  };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function toField(draft: TVisitorFieldDraft): TQrFormField {
  return {
    name: draft.name.trim(),
    label: draft.label.trim(),
    type: draft.type,
    required: draft.required,
    ...(draft.type === 'select' ? { options: lines(draft.options) } : {}),
  };
}

export function toSaveRequest(values: TEditorValues): TSaveQrSchemaRequest {
  return {
    title: values.title,
    description: values.description,
    thank_you: values.thank_you,
    slug: values.slug.trim().toLowerCase(),
    active: values.active,
    list_id: values.list_id === '' ? null : Number(values.list_id),
    consent: { ...values.consent },
    fields: values.fields.map(toField),
  };
}

/** The request's problems keyed as the server keys them (`fields.1.name`, `consent.sms`, …). */
export function checkSaveRequest(request: TSaveQrSchemaRequest): Record<string, string[]> {
  const parsed = ZSaveQrSchemaRequest.safeParse(request);
  if (parsed.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues)
    (errors[issue.path.join('.') || 'non_field_errors'] ??= []).push(issue.message);
  return errors;
}

/** The draft as the public page would show it: the preview. */
export function toPreview(
  values: TEditorValues,
  business: { name: string; dial_code: string | null },
): TPublicQrForm {
  const used = new Set<string>();
  return {
    business,
    title: values.title.trim() || ' ',
    description: values.description.trim(),
    fields: values.fields.map((draft, i) => {
      const field = toField(draft);
      // Half-typed drafts still show: a missing or repeated name gets a stand-in.
      const name = field.name && !used.has(field.name) ? field.name : `field_${i + 1}`;
      used.add(name);
      return { ...field, name, label: field.label || `Field ${i + 1}` };
    }),
    consent: Object.fromEntries(
      QR_FORM_CHANNELS.map((c) => [c, values.consent[c]]),
    ) as TPublicQrForm['consent'],
    thank_you: values.thank_you.trim(),
  };
}
