// Message templates: the seed set the sim starts with, and the checks Meta runs on a template send
// (exists in that language, approved, parameter counts match the placeholders).
import { GraphError, invalidParameter } from './graph-errors';

export type SimTemplate = {
  id?: string;
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  parameter_format?: 'POSITIONAL' | 'NAMED';
  components: unknown[];
};

export type StoredTemplate = SimTemplate & { id: string; parameter_format: 'POSITIONAL' | 'NAMED' };

export const SEED_TEMPLATES: SimTemplate[] = [
  {
    name: 'order_update',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Order {{1}}', example: { header_text: ['#1042'] } },
      {
        type: 'BODY',
        text: 'Hi {{1}}, your order is now {{2}}. Reply if you need anything.',
        example: { body_text: [['Ada', 'on its way']] },
      },
      { type: 'FOOTER', text: 'Titan Shop' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'QUICK_REPLY', text: 'Talk to us' },
          {
            type: 'URL',
            text: 'Track order',
            url: 'https://shop.example.com/track/{{1}}',
            example: ['https://shop.example.com/track/1042'],
          },
          { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100200' },
        ],
      },
    ],
  },
  {
    name: 'hello_world',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Hello World' },
      {
        type: 'BODY',
        text: 'Welcome and congratulations!! This message demonstrates your ability to send a WhatsApp message notification from the Cloud API, hosted by Meta. Thank you for taking the time to test with us.',
      },
      { type: 'FOOTER', text: 'WhatsApp Business Platform sample message' },
    ],
  },
  {
    name: 'invoice_ready',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'DOCUMENT', example: { header_handle: ['https://example.com/invoice.pdf'] } },
      { type: 'BODY', text: 'Hello {{1}}, your invoice is attached.', example: { body_text: [['Ada']] } },
    ],
  },
  {
    name: 'spring_sale',
    language: 'en_US',
    status: 'APPROVED',
    category: 'MARKETING',
    components: [
      {
        type: 'BODY',
        text: 'Spring sale: {{1}} off everything until Sunday!',
        example: { body_text: [['20%']] },
      },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Stop promotions' }] },
    ],
  },
  {
    name: 'appointment_reminder',
    language: 'es',
    status: 'APPROVED',
    category: 'UTILITY',
    parameter_format: 'NAMED',
    components: [
      {
        type: 'BODY',
        text: 'Hola {{first_name}}, te esperamos el {{date}}.',
        example: {
          body_text_named_params: [
            { param_name: 'first_name', example: 'Ana' },
            { param_name: 'date', example: 'lunes' },
          ],
        },
      },
    ],
  },
  {
    name: 'login_code',
    language: 'en_US',
    status: 'APPROVED',
    category: 'AUTHENTICATION',
    components: [
      { type: 'BODY', text: '{{1}} is your verification code.', add_security_recommendation: true },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ],
  },
  {
    name: 'new_feature_pending',
    language: 'en_US',
    status: 'PENDING',
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'Something new is coming, {{1}}!', example: { body_text: [['Ada']] } },
    ],
  },
  {
    name: 'rejected_promo',
    language: 'en_US',
    status: 'REJECTED',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Win a free phone now!!!' }],
  },
];

export function storeTemplates(templates: SimTemplate[], nextId: () => string): StoredTemplate[] {
  return templates.map((t) => ({
    ...t,
    id: t.id ?? nextId(),
    parameter_format: t.parameter_format ?? (hasNamedPlaceholders(t) ? 'NAMED' : 'POSITIONAL'),
  }));
}

type Component = { type?: unknown; format?: unknown; text?: unknown; buttons?: unknown };
type SendComponent = { type?: unknown; sub_type?: unknown; index?: unknown; parameters?: unknown };

const componentOf = (t: SimTemplate, type: string): Component | undefined =>
  (t.components as Component[]).find((c) => String(c.type).toUpperCase() === type);

/** Distinct `{{…}}` placeholders in a component text. */
export function placeholders(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...new Set([...text.matchAll(/\{\{\s*([\w]+)\s*\}\}/g)].map((m) => m[1] ?? ''))];
}

function hasNamedPlaceholders(t: SimTemplate): boolean {
  return placeholders(componentOf(t, 'BODY')?.text).some((p) => !/^\d+$/.test(p));
}

export type TemplateSend = { name?: unknown; language?: { code?: unknown } | unknown; components?: unknown };

/** Meta's checks on `template` in a send; returns the template that will be sent. */
/**
 * A media header's object (`{type: "image", image: {link}}`): as on a media message, exactly one of
 * an uploaded media id or an http(s) link; a file name on documents only.
 */
function headerMedia(type: string, param: Record<string, unknown>, mediaExists: (id: string) => boolean) {
  const field = `template['components'][header]['parameters'][0]['${type}']`;
  const media = param[type] as Record<string, unknown> | undefined;
  if (typeof media !== 'object' || media === null || Array.isArray(media))
    throw invalidParameter(`Param ${field} is required`);
  const { id, link, filename } = media;
  if ((id === undefined) === (link === undefined))
    throw invalidParameter(`Param ${field} must have exactly one of ['id'] or ['link']`);
  if (id !== undefined && (typeof id !== 'string' || !mediaExists(id)))
    throw invalidParameter(
      `Param ${field}['id'] is not a valid whatsapp business account media attachment ID`,
    );
  if (link !== undefined && (typeof link !== 'string' || !/^https?:\/\/\S+$/i.test(link)))
    throw invalidParameter(`Param ${field}['link'] must be a valid URL`);
  if (filename !== undefined && (type !== 'document' || typeof filename !== 'string'))
    throw invalidParameter(`Param ${field}['filename'] is only valid for documents`);
}

export function validateTemplateSend(
  templates: StoredTemplate[],
  send: TemplateSend,
  mediaExists: (id: string) => boolean = () => false,
): StoredTemplate {
  if (typeof send.name !== 'string' || !send.name) throw invalidParameter('Param template[name] is required');
  const code = (send.language as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code) throw invalidParameter('Param template[language][code] is required');
  if (send.components !== undefined && !Array.isArray(send.components))
    throw invalidParameter('Param template[components] must be an array');
  const template = templates.find((t) => t.name === send.name && t.language === code);
  if (!template || template.status === 'PENDING' || template.status === 'REJECTED')
    throw new GraphError(132001, `template name (${send.name}) does not exist in ${code}`);
  if (template.status === 'PAUSED') throw new GraphError(132015, `Template ${send.name} is paused`);
  if (template.status === 'DISABLED') throw new GraphError(132016, `Template ${send.name} is disabled`);

  const given = (send.components ?? []) as SendComponent[];
  const paramsOf = (type: string) => {
    const c = given.find((g) => String(g.type).toLowerCase() === type);
    return Array.isArray(c?.parameters) ? (c.parameters as { type?: unknown }[]) : [];
  };

  const body = componentOf(template, 'BODY');
  const expectedBody = placeholders(body?.text).length;
  const bodyParams = paramsOf('body');
  if (bodyParams.length !== expectedBody)
    throw new GraphError(
      132000,
      `body: number of localizable_params (${bodyParams.length}) does not match the expected number of params (${expectedBody})`,
    );

  const header = componentOf(template, 'HEADER');
  const headerParams = paramsOf('header');
  const format = String(header?.format ?? '').toUpperCase();
  if (format === 'TEXT') {
    const expected = placeholders(header?.text).length;
    if (headerParams.length !== expected)
      throw new GraphError(
        132000,
        `header: number of localizable_params (${headerParams.length}) does not match the expected number of params (${expected})`,
      );
  } else if (['IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'].includes(format)) {
    if (headerParams.length !== 1 || String(headerParams[0]?.type).toUpperCase() !== format)
      throw new GraphError(
        132012,
        `header: Format mismatch, expected ${format}, received ${headerParams[0]?.type ? String(headerParams[0].type).toUpperCase() : 'UNKNOWN'}`,
      );
    if (format !== 'LOCATION') headerMedia(format.toLowerCase(), headerParams[0]!, mediaExists);
  }
  return template;
}

/** The body text as the customer sees it, placeholders filled from the send's parameters. */
export type RenderedTemplate = {
  header?: string;
  body: string;
  footer?: string;
  buttons: { type: string; text: string; payload?: string }[];
};

/** ` <link>` (or ` media <id>`) of a media header as sent, for the phone's thread. */
function mediaSource(given: SendComponent[], format: string): string {
  const header = given.find((g) => String(g.type).toLowerCase() === 'header');
  const param = (Array.isArray(header?.parameters) ? header.parameters : [])[0] as
    Record<string, unknown> | undefined;
  const media = param?.[format.toLowerCase()] as { link?: unknown; id?: unknown } | undefined;
  if (typeof media?.link === 'string') return ` ${media.link}`;
  if (typeof media?.id === 'string') return ` media ${media.id}`;
  return '';
}

export function renderTemplate(template: StoredTemplate, send: TemplateSend): RenderedTemplate {
  const given = (send.components ?? []) as SendComponent[];
  const fill = (text: unknown, type: string) => {
    const params = (given.find((g) => String(g.type).toLowerCase() === type)?.parameters ?? []) as Record<
      string,
      unknown
    >[];
    return String(text ?? '').replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => {
      const p = /^\d+$/.test(key) ? params[Number(key) - 1] : params.find((x) => x.parameter_name === key);
      return p
        ? String(
            p.text ??
              (p.currency as { fallback_value?: unknown } | undefined)?.fallback_value ??
              (p.date_time as { fallback_value?: unknown } | undefined)?.fallback_value ??
              whole,
          )
        : whole;
    });
  };
  const header = componentOf(template, 'HEADER');
  const footer = componentOf(template, 'FOOTER');
  const buttons = (componentOf(template, 'BUTTONS')?.buttons ?? []) as { type?: unknown; text?: unknown }[];
  // A quick reply's payload comes from the send's button component at the same index.
  const payloadAt = (index: number) => {
    const c = given.find((g) => String(g.type).toLowerCase() === 'button' && Number(g.index) === index);
    const p = (Array.isArray(c?.parameters) ? c.parameters : [])[0] as { payload?: unknown } | undefined;
    return typeof p?.payload === 'string' ? p.payload : undefined;
  };
  return {
    ...(header
      ? {
          header:
            String(header.format ?? 'TEXT').toUpperCase() === 'TEXT'
              ? fill(header.text, 'header')
              : `[${String(header.format).toLowerCase()}${mediaSource(given, String(header.format))}]`,
        }
      : {}),
    body: fill(componentOf(template, 'BODY')?.text, 'body'),
    ...(footer ? { footer: String(footer.text ?? '') } : {}),
    buttons: buttons.map((b, i) => {
      const payload = payloadAt(i);
      return { type: String(b.type ?? ''), text: String(b.text ?? ''), ...(payload ? { payload } : {}) };
    }),
  };
}
