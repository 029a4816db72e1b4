// QR visitor forms (engage.md §3): a business describes one public form (its QR schema), prints
// the QR code that opens it at /v/{businessCode}/{slug}, and each submission creates or updates a
// customer with the consent given. The answer checks live here so the page and the server agree.
import { z } from 'zod';
import { ZVisitorFormField, type TVisitorFormField } from './chat-group';

export const QR_FORM_CHANNELS = ['email', 'sms', 'whatsapp'] as const;
export type TQrFormChannel = (typeof QR_FORM_CHANNELS)[number];

export const QR_FORM_FIELDS_MAX = 20;
export const QR_FORM_OPTIONS_MAX = 50;
/** Longest answer per field type, in characters (digits for number). */
export const QR_FORM_ANSWER_MAX = {
  text: 200,
  textarea: 2000,
  email: 254,
  phone: 32,
  number: 15,
  select: 100,
  checkbox: 5,
} as const satisfies Record<TVisitorFormField['type'], number>;

export const QR_FORM_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;
export const QR_FORM_DEFAULT_SLUG = 'join';

export const QR_FORM_ERRORS = {
  notFound: 'This form is not available.',
  notSaved: 'Save the form first: its QR code opens the saved form.',
  required: 'This field is required.',
  email: 'Enter a valid email address.',
  phone: 'Enter a valid phone number.',
  phoneNeedsCountry: 'Enter the number with its country code.',
  number: 'Enter digits only.',
  select: 'Select one of the offered choices.',
  checkbox: 'Must be true or false.',
  tooLong: (max: number) => `Ensure this field has no more than ${max} characters.`,
  needsContact: 'Enter an email address or a phone number.',
  formNeedsContact: 'Add an email or a phone field: a submission needs one to find the customer again.',
  duplicateName: 'Another field already has this name.',
  oneEmailField: 'A form takes one email field.',
  onePhoneField: 'A form takes one phone field.',
  selectNeedsOptions: 'A select needs at least one option.',
  optionsOnlyForSelect: 'Only a select takes options.',
  consentNeedsEmail: 'Add an email field to ask for email consent.',
  consentNeedsPhone: 'Add a phone field to ask for SMS or WhatsApp consent.',
  consentEmailMissing: 'Enter your email address to get emails.',
  consentPhoneMissing: 'Enter your phone number to get messages.',
  staticListOnly: 'No such static list: a form adds people to a static list.',
  slug: 'Use lowercase letters, digits and hyphens (1–50, not starting or ending with a hyphen).',
  confirmInvalid: 'This confirmation link is not valid or has expired.',
} as const;

/** What a visitor agrees to per channel: shown beside each box and kept with each submission. */
export const QR_CONSENT_WORDING = {
  email: (business: string) => `Yes, ${business} may send me emails with news and offers.`,
  sms: (business: string) => `Yes, ${business} may send me text messages (SMS).`,
  whatsapp: (business: string) => `Yes, ${business} may message me on WhatsApp.`,
} as const satisfies Record<TQrFormChannel, (business: string) => string>;

export const ZQrConsentChoice = z.object({
  email: z.boolean().default(false),
  sms: z.boolean().default(false),
  whatsapp: z.boolean().default(false),
});
export type TQrConsentChoice = z.infer<typeof ZQrConsentChoice>;

/** One field of the form: the chat widget's visitor-form field shape. */
export const ZQrFormField = ZVisitorFormField;
export type TQrFormField = TVisitorFormField;

/** The form as the staff save it (PUT replaces it; `slug` and `active` are kept when left out). */
export const ZSaveQrSchemaRequest = z
  .object({
    title: z.string().trim().min(1).max(120),
    description: z.string().trim().max(1000).default(''),
    fields: z.array(ZQrFormField).min(1).max(QR_FORM_FIELDS_MAX),
    consent: ZQrConsentChoice.default({ email: false, sms: false, whatsapp: false }),
    list_id: z.number().int().positive().nullable().optional(),
    thank_you: z.string().trim().max(500).default(''),
    slug: z.string().trim().regex(QR_FORM_SLUG_PATTERN, QR_FORM_ERRORS.slug).optional(),
    active: z.boolean().optional(),
  })
  .superRefine((form, ctx) => {
    const seen = new Set<string>();
    let emails = 0;
    let phones = 0;
    form.fields.forEach((field, i) => {
      if (seen.has(field.name))
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'name'],
          message: QR_FORM_ERRORS.duplicateName,
        });
      seen.add(field.name);
      if (field.type === 'email' && ++emails > 1)
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'type'],
          message: QR_FORM_ERRORS.oneEmailField,
        });
      if (field.type === 'phone' && ++phones > 1)
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'type'],
          message: QR_FORM_ERRORS.onePhoneField,
        });
      if (field.type === 'select' && !field.options?.length)
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'options'],
          message: QR_FORM_ERRORS.selectNeedsOptions,
        });
      if (field.type !== 'select' && field.options?.length)
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'options'],
          message: QR_FORM_ERRORS.optionsOnlyForSelect,
        });
    });
    if (emails === 0 && phones === 0)
      ctx.addIssue({ code: 'custom', path: ['fields'], message: QR_FORM_ERRORS.formNeedsContact });
    if (form.consent.email && emails === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['consent', 'email'],
        message: QR_FORM_ERRORS.consentNeedsEmail,
      });
    for (const channel of ['sms', 'whatsapp'] as const)
      if (form.consent[channel] && phones === 0)
        ctx.addIssue({
          code: 'custom',
          path: ['consent', channel],
          message: QR_FORM_ERRORS.consentNeedsPhone,
        });
  });
export type TSaveQrSchemaRequest = z.input<typeof ZSaveQrSchemaRequest>;

/** The business's form as the staff read it, with where it lives and its QR codes. */
export const ZQrSchema = z.object({
  title: z.string(),
  description: z.string(),
  fields: z.array(ZQrFormField),
  consent: ZQrConsentChoice,
  list_id: z.number().int().nullable(),
  thank_you: z.string(),
  slug: z.string(),
  active: z.boolean(),
  /** The public form's absolute address: what the QR code holds. */
  url: z.string(),
  qr_svg_url: z.string(),
  qr_png_url: z.string(),
  submission_count: z.number().int(),
  /** Null until the form is first saved: the answer is then the starting form, not live yet. */
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
});
export type TQrSchema = z.infer<typeof ZQrSchema>;

/** What a form looks like before its first save. */
export const QR_FORM_DEFAULTS = {
  title: 'Stay in touch',
  description: 'Leave your details and we will keep you posted.',
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: true },
  ],
  consent: { email: true, sms: false, whatsapp: false },
  list_id: null,
  thank_you: '',
  slug: QR_FORM_DEFAULT_SLUG,
  active: true,
} as const satisfies Omit<
  TQrSchema,
  'url' | 'qr_svg_url' | 'qr_png_url' | 'submission_count' | 'created_at' | 'updated_at'
>;

export const ZQrFormParams = z.object({
  business_code: z.string().trim().min(1).max(64),
  slug: z.string().trim().min(1).max(50),
});

export const ZQrCodeQuery = z.object({
  /** PNG width and height in pixels. */
  size: z.coerce.number().int().min(128).max(2048).default(512),
});

/** The public form as a visitor's page reads it. */
export const ZPublicQrForm = z.object({
  business: z.object({ name: z.string(), dial_code: z.string().nullable() }),
  title: z.string(),
  description: z.string(),
  fields: z.array(ZQrFormField),
  consent: ZQrConsentChoice,
  thank_you: z.string(),
});
export type TPublicQrForm = z.infer<typeof ZPublicQrForm>;

const ZAnswer = z.union([z.string().max(5000), z.number(), z.boolean(), z.null()]);

export const ZQrSubmission = z.object({
  fields: z
    .record(z.string().max(64), ZAnswer)
    .refine((f) => Object.keys(f).length <= 50, 'At most 50 answers.'),
  consent: z
    .object({ email: z.boolean().optional(), sms: z.boolean().optional(), whatsapp: z.boolean().optional() })
    .default({}),
});
export type TQrSubmission = z.input<typeof ZQrSubmission>;

/** The key of a field's answer in a submission's 400 answer (and on the page's form). */
export const qrAnswerKey = (name: string) => `fields.${name}`;

const ZEmailAnswer = z.email();

/**
 * One answer checked against its field: the error message, or null when it is fine. A phone
 * number is only checked for its characters here; the server reads it in full (E.164).
 */
export function checkQrAnswer(field: TQrFormField, value: unknown): string | null {
  const empty =
    value === undefined ||
    value === null ||
    value === false ||
    (typeof value === 'string' && value.trim() === '');
  if (empty) return field.required ? QR_FORM_ERRORS.required : null;
  if (field.type === 'checkbox') return typeof value === 'boolean' ? null : QR_FORM_ERRORS.checkbox;
  const text = (typeof value === 'string' ? value : String(value)).trim();
  const max = QR_FORM_ANSWER_MAX[field.type];
  switch (field.type) {
    case 'number':
      return /^[0-9]+$/.test(text)
        ? text.length > max
          ? QR_FORM_ERRORS.tooLong(max)
          : null
        : QR_FORM_ERRORS.number;
    case 'email':
      return text.length <= max && ZEmailAnswer.safeParse(text).success ? null : QR_FORM_ERRORS.email;
    case 'phone':
      return /^\+?[0-9][0-9 ()-]{3,31}$/.test(text) && text.length <= max ? null : QR_FORM_ERRORS.phone;
    case 'select':
      return (field.options ?? []).includes(text) ? null : QR_FORM_ERRORS.select;
    case 'text':
    case 'textarea':
      return text.length > max ? QR_FORM_ERRORS.tooLong(max) : null;
    default: {
      const unreachable: never = field.type;
      return String(unreachable);
    }
  }
}

// ---- Double opt-in: the confirmation link mailed to an address that had opted out ----

/** `POST /api/public/qr-forms/confirm/`: the token of the link in the confirmation mail. */
export const ZQrConfirmRequest = z.object({ token: z.string().trim().min(1).max(2000) });
export type TQrConfirmRequest = z.infer<typeof ZQrConfirmRequest>;

/** The subscription the link confirmed (or had confirmed before). */
export const ZQrConfirmResult = z.object({
  business_name: z.string(),
  email: z.string(),
  subscribed: z.literal(true),
});
export type TQrConfirmResult = z.infer<typeof ZQrConfirmResult>;
