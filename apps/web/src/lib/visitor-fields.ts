// A visitor form's field as people edit it (a chat group's form, a QR form): a select's options as
// lines of text, and a flag that lets a new field's name follow its label.
import type { TVisitorFormField } from '@titan/contracts';

export type TVisitorFieldDraft = {
  label: string;
  name: string;
  type: TVisitorFormField['type'];
  required: boolean;
  /** A select's choices, one per line. */
  options: string;
  /** The name still follows the label: a new field whose name nobody has typed. */
  autoName: boolean;
};

export function newVisitorFieldDraft(): TVisitorFieldDraft {
  return { label: '', name: '', type: 'text', required: false, options: '', autoName: true };
}

export const FIELD_NAME_MAX = 40;

/** "Company name" → "company_name"; a label starting with a digit gets an "f_" prefix. */
export function fieldNameFromLabel(label: string): string {
  const base = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!base) return '';
  const name = /^[a-z]/.test(base) ? base : `f_${base}`;
  return name.slice(0, FIELD_NAME_MAX).replace(/_+$/, '');
}
