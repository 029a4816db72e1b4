// A chat group's visitor form, asked before a visitor's first message: the shared fields builder with
// the chat groups' words and limits.
import { VisitorFieldsBuilder } from '../../../components/form/visitor-fields-builder';
import type { TGroupForm } from '../hooks/use-group-form';
import { CHAT_GROUPS_STRINGS, VISITOR_FIELD_TYPE_LABELS } from '../strings';
import { VISITOR_FIELDS_MAX } from '../utils/group-form';

export function VisitorFormBuilder({ form }: { form: TGroupForm }) {
  const { errors } = form.formState;
  return (
    <VisitorFieldsBuilder
      form={form}
      name="visitor_form"
      strings={CHAT_GROUPS_STRINGS.visitorForm}
      typeLabels={VISITOR_FIELD_TYPE_LABELS}
      max={VISITOR_FIELDS_MAX}
      listError={errors.visitor_form?.root?.message ?? errors.visitor_form?.message}
    />
  );
}
