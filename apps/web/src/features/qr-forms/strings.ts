// User-visible strings of the QR visitor form: the public page and its editor in Settings. The
// consent wording per channel is shared with the server (contracts), which keeps it with each
// submission.
import type { TVisitorFormField } from '@titan/contracts';

export const QR_FIELD_TYPE_LABELS = {
  text: 'Short text',
  email: 'Email',
  phone: 'Phone number',
  textarea: 'Long text',
  number: 'Number (digits)',
  select: 'Choice from a list',
  checkbox: 'Checkbox',
} as const satisfies Record<TVisitorFormField['type'], string>;

export const QR_PUBLIC_STRINGS = {
  loading: 'Loading the form…',
  unavailableTitle: 'This form is not available',
  unavailable: 'The link may be mistyped, or the business has switched this form off.',
  failed: 'The form could not be loaded.',
  retry: 'Try again',
  optional: '(optional)',
  dialCodeShort: 'Code',
  dialCode: (label: string) => `${label}: country code`,
  consentLegend: 'How may we keep in touch?',
  consentHint: 'Tick only what you want. You can unsubscribe at any time.',
  submit: 'Send',
  submitting: 'Sending…',
  previewNote: 'Preview: this form is not sent from here.',
  thanksTitle: 'Thank you!',
  thanks: (business: string) => `Your details are with ${business}.`,
  sendAnother: 'Fill in the form again',
} as const;

export const QR_EDITOR_STRINGS = {
  title: 'QR form',
  description:
    'A form your visitors open by scanning a QR code, on a poster, a counter or a receipt. Each submission adds the person to your directory with the consent they gave.',
  notAllowed: 'Your role does not allow changing the QR form. Ask an owner or admin.',
  formTitle: 'Title',
  formDescription: 'Text under the title',
  thankYou: 'Thank-you message',
  thankYouHint: 'Shown after sending. Left empty, the page thanks them in your business name.',
  slug: 'Address',
  slugHint: 'The last part of the form’s address. Changing it makes codes already printed stop working.',
  active: 'Taking submissions',
  activeHint: 'Switched off, the address says the form is not available.',
  list: 'Add people to list',
  noList: 'No list',
  listHint: 'Each person who sends the form is added to this static list.',
  fieldsTitle: 'Fields',
  fieldsHint:
    'A field named “name” becomes the customer’s name; the email and phone fields find the customer again. The other answers are kept on the customer.',
  field: (n: number) => `Field ${n}`,
  label: 'Label',
  name: 'Name',
  type: 'Type',
  required: 'Required',
  options: 'Options',
  optionsHint: 'One per line.',
  add: 'Add field',
  moveUp: (n: number) => `Move field ${n} up`,
  moveDown: (n: number) => `Move field ${n} down`,
  remove: (n: number) => `Remove field ${n}`,
  consentTitle: 'Consent to ask for',
  consentHint: 'Each box the visitor ticks subscribes them on that channel.',
  consentChannels: { email: 'Email', sms: 'SMS', whatsapp: 'WhatsApp' },
  save: 'Save form',
  saving: 'Saving…',
  saved: 'QR form saved',
  previewTitle: 'Preview',
  qrTitle: 'QR code',
  qrNotSaved: 'Save the form to get its QR code.',
  qrAlt: (url: string) => `QR code that opens ${url}`,
  qrOff: 'The form is switched off: the code opens a page saying it is not available.',
  downloadSvg: 'Download SVG',
  downloadPng: 'Download PNG',
  downloadFailed: 'The QR code could not be downloaded.',
  openForm: 'Open the form',
  submissions: (n: number) => (n === 1 ? '1 submission so far' : `${n} submissions so far`),
} as const;

/** The double opt-in page (/engage/confirm?token=…), reached from the confirmation mail. */
export const QR_CONFIRM_STRINGS = {
  title: 'Confirm your subscription',
  explain:
    'Someone asked to receive emails at this address on a sign-up form. Nothing changes until you confirm.',
  button: 'Confirm my subscription',
  working: 'Confirming…',
  doneTitle: 'You are subscribed',
  done: (business: string, email: string) => `${email} will receive emails from ${business}.`,
  unsubscribeLater: 'Every email has a link to unsubscribe at any time.',
  invalidTitle: 'This link is not valid',
  failed: 'Something went wrong. Please try again.',
} as const;
