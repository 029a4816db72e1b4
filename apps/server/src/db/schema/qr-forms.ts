// QR visitor forms (engage.md §3; only modules/qr-forms/qr-forms.repository.ts touches these):
// one public form per business, and each submission kept as the record of the consent given.
import { bigint, bigserial, boolean, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { TQrConsentChoice, TQrFormField } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';
import { customerLists } from './audience';
import { customers } from './inbox';

export const qrForms = pgTable('qr_forms', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** One form per business: the spec's "QR schema" is one resource of the business. */
  businessId: bigint('business_id', { mode: 'number' })
    .notNull()
    .unique()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  slug: text('slug').notNull(),
  title: text('title').notNull(),
  description: text('description').notNull().default(''),
  fields: jsonb('fields').$type<TQrFormField[]>().notNull(),
  /** The channels the form asks consent for. */
  consent: jsonb('consent').$type<TQrConsentChoice>().notNull(),
  listId: bigint('list_id', { mode: 'number' }).references(() => customerLists.id, { onDelete: 'set null' }),
  thankYou: text('thank_you').notNull().default(''),
  active: boolean('active').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** A submission: who (the customer it created or updated), when, and the consent given in which words. */
export const qrFormSubmissions = pgTable(
  'qr_form_submissions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    formId: bigint('form_id', { mode: 'number' })
      .notNull()
      .references(() => qrForms.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' }).references(() => customers.id, {
      onDelete: 'set null',
    }),
    created: boolean('created').notNull(),
    /** Per channel asked: `{given, wording}` — what the visitor saw and whether they ticked it. */
    consent: jsonb('consent').$type<Record<string, { given: boolean; wording: string }>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('qr_form_submissions_form_idx').on(t.formId, t.createdAt),
    index('qr_form_submissions_customer_idx').on(t.customerId),
  ],
);
