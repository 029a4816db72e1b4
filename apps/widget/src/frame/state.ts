// Pure helpers for the chat's lists: live events and fetched pages merge without duplicates.
import type { TConversation, TPublicMessage, TVisitorFormField } from '@titan/contracts';

const time = (iso: string | null) => (iso ? Date.parse(iso) : 0);

export function sortConversations(list: TConversation[]): TConversation[] {
  return [...list].sort(
    (a, b) =>
      time(b.last_message_at ?? b.created_at) - time(a.last_message_at ?? a.created_at) || b.id - a.id,
  );
}

export function upsertConversation(list: TConversation[], conversation: TConversation): TConversation[] {
  return sortConversations([conversation, ...list.filter((c) => c.id !== conversation.id)]);
}

/** Oldest first, one entry per id; a later copy of a message (an update) wins. */
export function mergeMessages(current: TPublicMessage[], incoming: TPublicMessage[]): TPublicMessage[] {
  const byId = new Map<string, TPublicMessage>();
  for (const message of [...current, ...incoming]) byId.set(String(message.id), message);
  return [...byId.values()].sort(
    (a, b) => time(a.created_at) - time(b.created_at) || Number(a.id) - Number(b.id),
  );
}

export type TFormValues = Record<string, string | boolean>;
export type TVisitorDetails = {
  name?: string;
  email?: string;
  phone?: string;
  fields?: Record<string, string | number | boolean>;
};

const STANDARD = new Set(['name', 'email', 'phone']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Client-side checks before the server's: required fields and the email's shape. */
export function validateVisitorForm(
  fields: TVisitorFormField[],
  values: TFormValues,
  messages: { required: string; invalidEmail: string },
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.name];
    const empty = value === undefined || value === false || (typeof value === 'string' && !value.trim());
    if (field.required && empty) errors[field.name] = messages.required;
    else if (field.type === 'email' && typeof value === 'string' && value.trim() && !EMAIL.test(value.trim()))
      errors[field.name] = messages.invalidEmail;
  }
  return errors;
}

/** The form's values as POST /api/public/customers/ takes them: name, email, phone, and fields. */
export function visitorDetails(fields: TVisitorFormField[], values: TFormValues): TVisitorDetails {
  const details: TVisitorDetails = {};
  const extra: Record<string, string | number | boolean> = {};
  for (const field of fields) {
    const raw = values[field.name];
    if (raw === undefined || raw === '') continue;
    const value = typeof raw === 'string' ? raw.trim() : raw;
    if (value === '') continue;
    if (STANDARD.has(field.name) && typeof value === 'string') {
      details[field.name as 'name' | 'email' | 'phone'] = value;
    } else if (field.type === 'number' && typeof value === 'string') {
      const n = Number(value);
      extra[field.name] = Number.isFinite(n) ? n : value;
    } else {
      extra[field.name] = value;
    }
  }
  if (Object.keys(extra).length > 0) details.fields = extra;
  return details;
}

/** Server field errors name a standard field, or a custom one as `fields.<name>`. */
export function formFieldErrors(fields: Record<string, string[]>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, list] of Object.entries(fields)) {
    const name = key.startsWith('fields.') ? key.slice('fields.'.length) : key;
    if (list[0]) errors[name] = list[0];
  }
  return errors;
}
