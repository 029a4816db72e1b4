// What sending a WhatsApp template asks for, and the send-template components built from the answers.
// The server lists each template's placeholders (positional "1", "2" or NAMED "first_name") for the
// body and a TEXT header, a media header (image, video, document) that takes a public link, and URL
// buttons whose link ends in a placeholder.
import type { TSendTemplateComponent, TWhatsappTemplate } from '@titan/contracts';

export type TTemplateMediaFormat = 'image' | 'video' | 'document';

export type TTemplateField =
  | { key: string; component: 'header' | 'body'; name: string }
  | { key: string; component: 'button'; index: number; text: string };

export type TTemplateForm = {
  named: boolean;
  headerText: string | null;
  headerMedia: TTemplateMediaFormat | null;
  bodyText: string | null;
  fields: TTemplateField[];
};

export type TTemplateAnswers = { values: Record<string, string>; headerLink: string };

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const MEDIA_FORMATS: Record<string, TTemplateMediaFormat> = {
  IMAGE: 'image',
  VIDEO: 'video',
  DOCUMENT: 'document',
};

function componentText(template: TWhatsappTemplate, type: string): string | null {
  return template.components.find((c) => c.type.toUpperCase() === type)?.text ?? null;
}

export function templateForm(template: TWhatsappTemplate): TTemplateForm {
  const headerFormat = template.header_format?.toUpperCase() ?? null;
  return {
    named: template.parameter_format?.toUpperCase() === 'NAMED',
    headerText: headerFormat === 'TEXT' ? componentText(template, 'HEADER') : null,
    headerMedia: headerFormat ? (MEDIA_FORMATS[headerFormat] ?? null) : null,
    bodyText: componentText(template, 'BODY'),
    fields: [
      ...(headerFormat === 'TEXT'
        ? template.header_parameter_names.map((name) => ({
            key: `header:${name}`,
            component: 'header' as const,
            name,
          }))
        : []),
      ...template.body_parameter_names.map((name) => ({
        key: `body:${name}`,
        component: 'body' as const,
        name,
      })),
      ...template.button_parameters.map((button) => ({
        key: `button:${button.index}`,
        component: 'button' as const,
        index: button.index,
        text: button.text,
      })),
    ],
  };
}

/** The text with each placeholder replaced by its value; unanswered ones stay as written. */
export function fillPlaceholders(text: string, values: (name: string) => string | undefined): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const value = values(name)?.trim();
    return value ? value : whole;
  });
}

function answer(answers: TTemplateAnswers, field: TTemplateField): string {
  return (answers.values[field.key] ?? '').trim();
}

export function isComplete(form: TTemplateForm, answers: TTemplateAnswers): boolean {
  if (form.headerMedia && !answers.headerLink.trim()) return false;
  return form.fields.every((field) => answer(answers, field) !== '');
}

function mediaParameter(
  media: TTemplateMediaFormat,
  link: string,
): TSendTemplateComponent['parameters'][number] {
  switch (media) {
    case 'image':
      return { type: 'image', image: { link } };
    case 'video':
      return { type: 'video', video: { link } };
    case 'document':
      return { type: 'document', document: { link } };
    default: {
      const unreachable: never = media;
      return unreachable;
    }
  }
}

/** The send-template components: the body's parameters, the header's, then each URL button's. */
export function templateComponents(form: TTemplateForm, answers: TTemplateAnswers): TSendTemplateComponent[] {
  const textParameters = (component: 'header' | 'body') =>
    form.fields
      .filter((field) => field.component === component)
      .map((field) => ({
        type: 'text' as const,
        text: answer(answers, field),
        ...(form.named && field.component !== 'button' ? { parameter_name: field.name } : {}),
      }));
  const components: TSendTemplateComponent[] = [];
  const body = textParameters('body');
  if (body.length > 0) components.push({ type: 'body', parameters: body });
  const link = answers.headerLink.trim();
  if (form.headerMedia && link) {
    components.push({ type: 'header', parameters: [mediaParameter(form.headerMedia, link)] });
  } else {
    const header = textParameters('header');
    if (header.length > 0) components.push({ type: 'header', parameters: header });
  }
  for (const field of form.fields) {
    if (field.component !== 'button') continue;
    components.push({
      type: 'button',
      sub_type: 'url',
      index: field.index,
      parameters: [{ type: 'text', text: answer(answers, field) }],
    });
  }
  return components;
}
