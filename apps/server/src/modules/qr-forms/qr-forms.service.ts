// QR visitor forms (engage.md §3): the business's one public form, the QR code that opens it, and
// its submissions. A submission is checked against the form, limited per client address and per
// form, and written in one transaction: the customer found (lower(email), else E.164 phone) or
// created, the list membership, the consent given and the submission's own record.
import QRCode from 'qrcode';
import {
  checkQrAnswer,
  QR_CONSENT_WORDING,
  QR_FORM_CHANNELS,
  QR_FORM_DEFAULTS,
  QR_FORM_ERRORS,
  qrAnswerKey,
  type ZQrSubmission,
  type ZSaveQrSchemaRequest,
  type TBusiness,
  type TFieldErrors,
  type TPublicQrForm,
  type TQrFormChannel,
  type TQrFormField,
  type TQrSchema,
} from '@titan/contracts';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db, Queryable } from '../../db/client';
import { AppError } from '../../platform/errors';
import { toE164 } from '../../platform/phone-numbers';
import type { RateLimiter } from '../../platform/rate-limiter';
import { findBusinessViewByCode as findBusinessByCode } from '../business';
import { addKnownMembers, doubleOptInOf, isStaticList } from '../customer-lists';
import {
  adoptSuppressions,
  askToConfirmJoin,
  type DoubleOptInDeps,
  maySubscribeAtOnce,
  recordConsentEvent,
  setCustomerConsent,
} from '../consent';
import type { Mailer } from '../../platform/mailer';
import { normalizeAddress } from '../suppressions';
import { emitCustomerEvents } from '../journeys';
import { recordEvent } from '../webhooks';
import { askToConfirm, CONSENT_SOURCE, submissionReference } from './qr-forms.confirm';
import {
  CONSENT_FIELD,
  type CustomerRow,
  findCustomerById,
  importCustomers,
  type ImportedRow,
} from '../directory';
import * as repo from './qr-forms.repository';

export type QrFormDeps = {
  db: Db;
  limiter: RateLimiter;
  /** Confirmation mail of the double opt-in goes out as Titan's own mail. */
  mailer: Mailer;
  /** A form adding to a double opt-in list asks the visitor to confirm (email link or SMS YES). */
  consent?: Pick<DoubleOptInDeps, 'sendText'>;
  config: Pick<
    Config,
    'PUBLIC_URL' | 'APP_SECRET' | 'QR_FORM_SUBMISSIONS_PER_IP_HOUR' | 'QR_FORM_SUBMISSIONS_PER_FORM_HOUR'
  >;
};

export const QR_SCHEMA_PATH = '/api/business/qr-schema/';
const HOUR = 3600;

/** The public form's address: what the QR code holds and what the web app serves. */
export function formUrl(publicUrl: string, businessCode: string, slug: string): string {
  return `${publicUrl}/v/${encodeURIComponent(businessCode)}/${encodeURIComponent(slug)}`;
}

function toSchema(
  deps: QrFormDeps,
  businessCode: string,
  row: repo.QrFormRow | null,
  submissionCount: number,
): TQrSchema {
  const saved = row
    ? {
        title: row.title,
        description: row.description,
        fields: row.fields,
        consent: row.consent,
        list_id: row.listId,
        thank_you: row.thankYou,
        slug: row.slug,
        active: row.active,
      }
    : {
        ...QR_FORM_DEFAULTS,
        fields: QR_FORM_DEFAULTS.fields.map((f) => ({ ...f })),
        consent: { ...QR_FORM_DEFAULTS.consent },
      };
  return {
    ...saved,
    url: formUrl(deps.config.PUBLIC_URL, businessCode, saved.slug),
    qr_svg_url: `${QR_SCHEMA_PATH}qr.svg`,
    qr_png_url: `${QR_SCHEMA_PATH}qr.png`,
    submission_count: submissionCount,
    created_at: row?.createdAt.toISOString() ?? null,
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}

/** The business's form; before its first save, the starting form (created_at null). */
export async function findSchema(deps: QrFormDeps, business: { id: number; uniqueCode: string }) {
  const row = await repo.findForm(deps.db, business.id);
  return toSchema(deps, business.uniqueCode, row, row ? await repo.countSubmissions(deps.db, row.id) : 0);
}

export async function saveSchema(
  deps: QrFormDeps,
  business: { id: number; uniqueCode: string },
  input: z.output<typeof ZSaveQrSchemaRequest>,
): Promise<TQrSchema> {
  const listId = input.list_id ?? null;
  if (listId !== null && !(await isStaticList(deps.db, business.id, listId)))
    throw AppError.fields({ list_id: [QR_FORM_ERRORS.staticListOnly] });
  const current = await repo.findForm(deps.db, business.id);
  const row = await repo.saveForm(deps.db, {
    businessId: business.id,
    title: input.title,
    description: input.description,
    fields: input.fields,
    consent: input.consent,
    listId,
    thankYou: input.thank_you,
    slug: input.slug ?? current?.slug ?? QR_FORM_DEFAULTS.slug,
    active: input.active ?? current?.active ?? true,
  });
  return toSchema(deps, business.uniqueCode, row, await repo.countSubmissions(deps.db, row.id));
}

export type QrImage = { bytes: Buffer; contentType: string; fileName: string };

/** The QR code of the saved form's address, as SVG or a PNG of `size` pixels. */
export async function qrCode(
  deps: QrFormDeps,
  business: { id: number; uniqueCode: string },
  format: 'svg' | 'png',
  size = 512,
): Promise<QrImage> {
  const row = await repo.findForm(deps.db, business.id);
  if (!row) throw AppError.notFound(QR_FORM_ERRORS.notSaved);
  const url = formUrl(deps.config.PUBLIC_URL, business.uniqueCode, row.slug);
  // Level M survives a smudged or partly covered print; 4 modules of quiet zone is the standard's.
  const options = {
    errorCorrectionLevel: 'M',
    margin: 4,
    color: { dark: '#000000', light: '#ffffff' },
  } as const;
  const fileName = `qr-${row.slug}.${format}`;
  if (format === 'svg')
    return {
      bytes: Buffer.from(await QRCode.toString(url, { ...options, type: 'svg' })),
      contentType: 'image/svg+xml',
      fileName,
    };
  return {
    bytes: await QRCode.toBuffer(url, { ...options, type: 'png', width: size }),
    contentType: 'image/png',
    fileName,
  };
}

// ---- The public side: the visitor's page reads the form and sends it ----

async function liveForm(
  db: Db,
  code: string,
  slug: string,
): Promise<{ business: TBusiness; form: repo.QrFormRow }> {
  const business = await findBusinessByCode(db, code);
  const form = business ? await repo.findFormBySlug(db, business.id, slug.toLowerCase()) : null;
  if (!business || !form || !form.active) throw AppError.notFound(QR_FORM_ERRORS.notFound);
  return { business, form };
}

export async function publicForm(deps: QrFormDeps, code: string, slug: string): Promise<TPublicQrForm> {
  const { business, form } = await liveForm(deps.db, code, slug);
  return {
    business: { name: business.name, dial_code: business.dial_code },
    title: form.title,
    description: form.description,
    fields: form.fields,
    consent: form.consent,
    thank_you: form.thankYou,
  };
}

type ReadSubmission = { row: ImportedRow; consent: Record<TQrFormChannel, boolean> };

/** The answers checked against the form and turned into a directory row; 400 with every problem. */
export function readSubmission(
  fields: TQrFormField[],
  offered: Record<TQrFormChannel, boolean>,
  input: z.output<typeof ZQrSubmission>,
  dialCode: string | null,
): ReadSubmission {
  const errors: TFieldErrors = {};
  const row: ImportedRow = {
    rowNumber: 1,
    name: null,
    email: null,
    phone: null,
    externalId: null,
    fields: {},
  };
  let first = '';
  let last = '';
  const emailField = fields.find((f) => f.type === 'email')?.name;
  const phoneField = fields.find((f) => f.type === 'phone')?.name;
  for (const field of fields) {
    const value = input.fields[field.name];
    const problem = checkQrAnswer(field, value);
    if (problem) {
      errors[qrAnswerKey(field.name)] = [problem];
      continue;
    }
    if (value === undefined || value === null || value === '' || value === false) continue;
    const text = String(value).trim();
    if (field.type === 'email') row.email = text.toLowerCase();
    else if (field.type === 'phone') {
      row.phone = toE164(text, dialCode);
      if (!row.phone)
        errors[qrAnswerKey(field.name)] = [
          !text.startsWith('+') && !dialCode ? QR_FORM_ERRORS.phoneNeedsCountry : QR_FORM_ERRORS.phone,
        ];
    } else if (field.name === 'name' && field.type === 'text') row.name = text;
    else if (field.name === 'first_name' && field.type === 'text') first = text;
    else if (field.name === 'last_name' && field.type === 'text') last = text;
    else row.fields[field.name] = text;
  }
  if (!row.name && (first || last)) row.name = [first, last].filter(Boolean).join(' ');
  if (first) row.fields.first_name = first;
  if (last) row.fields.last_name = last;
  const contactFields = fields.filter((f) => f.type === 'email' || f.type === 'phone');
  if (!row.email && !row.phone)
    for (const f of contactFields) errors[qrAnswerKey(f.name)] ??= [QR_FORM_ERRORS.needsContact];
  // Only the channels the form asks about count; a box it does not show is not consent.
  const consent = Object.fromEntries(
    QR_FORM_CHANNELS.map((c) => [c, offered[c] && input.consent[c] === true]),
  ) as Record<TQrFormChannel, boolean>;
  if (consent.email && !row.email && !(emailField && errors[qrAnswerKey(emailField)]))
    errors['consent.email'] = [QR_FORM_ERRORS.consentEmailMissing];
  for (const channel of ['sms', 'whatsapp'] as const)
    if (consent[channel] && !row.phone && !(phoneField && errors[qrAnswerKey(phoneField)]))
      errors[`consent.${channel}`] = [QR_FORM_ERRORS.consentPhoneMissing];
  if (Object.keys(errors).length > 0) throw AppError.fields(errors);
  return { row, consent };
}

/**
 * The customer takes over what the suppression list says of their addresses (a new customer, or
 * one the form gave a new address); then each channel ticked for the address the visitor typed
 * becomes `subscribed` when its consent was unknown and nothing suppressed it (kept as a single
 * opt-in). An opted-out or blocked address is left as it is: for email, its owner is asked to
 * confirm (`confirm`); SMS and WhatsApp have no confirmation, so an opted-out number stays opted
 * out. An unticked box changes nothing.
 */
async function recordConsent(
  tx: Queryable,
  businessId: number,
  customerId: number,
  given: Record<TQrFormChannel, boolean>,
  typed: { email: string | null; phone: string | null },
): Promise<{ customer: CustomerRow | null; subscribed: TQrFormChannel[]; confirm: boolean }> {
  await adoptSuppressions(tx, businessId, [customerId]);
  const customer = await findCustomerById(tx, businessId, customerId);
  if (!customer) return { customer: null, subscribed: [], confirm: false };
  const subscribed: TQrFormChannel[] = [];
  let confirm = false;
  for (const channel of QR_FORM_CHANNELS) {
    if (!given[channel] || customer[CONSENT_FIELD[channel]] === 'subscribed') continue;
    // Only the address the visitor typed: a merge keeps a stored address they did not give.
    const gave = channel === 'email' ? typed.email : typed.phone;
    const stored = channel === 'email' ? customer.email : customer.phone;
    if (!gave || !stored || normalizeAddress(gave) !== normalizeAddress(stored)) continue;
    if (await maySubscribeAtOnce(tx, businessId, customer, channel)) subscribed.push(channel);
    else if (channel === 'email') confirm = true;
  }
  await setCustomerConsent(
    tx,
    businessId,
    customerId,
    Object.fromEntries(subscribed.map((c) => [c, 'subscribed' as const])),
  );
  return { customer, subscribed, confirm };
}

export type SubmitOutcome = { customerId: number; created: boolean };

/** One visitor's submission (see the module comment). */
export async function submitForm(
  deps: QrFormDeps,
  code: string,
  slug: string,
  input: z.output<typeof ZQrSubmission>,
  caller: { ip: string },
): Promise<SubmitOutcome> {
  // The address is counted before anything is looked up, so guessing codes costs the same.
  await deps.limiter.hit({
    key: `qr-form:ip:${caller.ip}`,
    max: deps.config.QR_FORM_SUBMISSIONS_PER_IP_HOUR,
    windowSeconds: HOUR,
  });
  const { business, form } = await liveForm(deps.db, code, slug);
  await deps.limiter.hit({
    key: `qr-form:form:${form.id}`,
    max: deps.config.QR_FORM_SUBMISSIONS_PER_FORM_HOUR,
    windowSeconds: HOUR,
  });
  const { row, consent } = readSubmission(form.fields, form.consent, input, business.dial_code);
  // A double opt-in list: no tick subscribes at once; the person confirms first.
  const joining = form.listId !== null ? await doubleOptInOf(deps.db, business.id, form.listId) : null;
  const confirmFirst = joining?.doubleOptIn === true && Object.values(consent).some(Boolean);
  const outcome = await deps.db.transaction(async (tx) => {
    await repo.lockBusinessSubmissions(tx, business.id);
    // Merge: an unverified visitor fills in what the directory lacks and never replaces stored details.
    const outcome = await importCustomers(tx, business.id, [row], 'merge');
    const written = outcome.inserted[0] ?? outcome.updated[0] ?? outcome.unchanged[0];
    if (!written) throw new Error('the submission wrote no customer');
    const created = outcome.inserted.length > 0;
    if (form.listId !== null) await addKnownMembers(tx, business.id, form.listId, [written.id]);
    const recorded = await recordConsent(
      tx,
      business.id,
      written.id,
      confirmFirst ? { email: false, sms: false, whatsapp: false } : consent,
      row,
    );
    const asked = QR_FORM_CHANNELS.filter((c) => form.consent[c]);
    const submissionId = await repo.insertSubmission(tx, {
      formId: form.id,
      businessId: business.id,
      customerId: written.id,
      created,
      consent: Object.fromEntries(
        asked.map((c) => [c, { given: consent[c], wording: QR_CONSENT_WORDING[c](business.name) }]),
      ),
    });
    const customer = recorded.customer;
    for (const channel of recorded.subscribed)
      await recordConsentEvent(tx, {
        businessId: business.id,
        customerId: written.id,
        channel,
        address: (channel === 'email' ? customer?.email : customer?.phone) ?? '',
        status: 'subscribed',
        source: CONSENT_SOURCE,
        method: 'single_opt_in',
        reference: submissionReference(submissionId),
        ip: caller.ip,
      });
    // The business's own systems hear of it with the change (the webhooks outbox).
    await recordEvent(tx, {
      businessId: business.id,
      type: 'form.submitted',
      objectKey: `customer:${written.id}`,
      data: {
        form_id: form.id,
        form_slug: slug,
        submission_id: submissionId,
        customer_id: written.id,
        customer_created: created,
        name: row.name,
        email: row.email,
        phone: row.phone,
        fields: row.fields,
        list_id: form.listId,
        consent: Object.fromEntries(asked.map((c) => [c, consent[c]])),
        confirmation_needed: confirmFirst,
      },
    });
    // And journeys may start on it (a welcome to whoever filled in the form).
    await emitCustomerEvents(tx, {
      businessId: business.id,
      customerId: written.id,
      name: 'form.submitted',
      properties: {
        form_id: form.id,
        form_slug: slug,
        submission_id: submissionId,
        customer_created: created,
        list_id: form.listId,
      },
    });
    return { customerId: written.id, created, submissionId, recorded };
  });
  // After the commit: the mail names a submission that exists. The visitor's answer is the same
  // whether or not a confirmation went out, so the form tells no stranger an address's state.
  const { customer, confirm } = outcome.recorded;
  if (confirmFirst && joining && form.listId !== null)
    await askToConfirmJoin(
      { ...deps, sendText: deps.consent?.sendText },
      {
        businessId: business.id,
        customerIds: [outcome.customerId],
        listId: form.listId,
        listName: joining.name,
        source: CONSENT_SOURCE,
        ip: caller.ip,
      },
    );
  else if (confirm && customer?.email)
    await askToConfirm(deps, {
      businessId: business.id,
      businessName: business.name,
      customerId: customer.id,
      submissionId: outcome.submissionId,
      address: customer.email,
      status: customer.emailStatus === 'pending' ? 'unknown' : customer.emailStatus,
      ip: caller.ip,
    });
  return { customerId: outcome.customerId, created: outcome.created };
}
