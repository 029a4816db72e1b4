// Email templates (engage.md §2): the current source per template, and every saved version with its
// compiled HTML. Only modules/templates/templates.repository.ts touches them.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { EMAIL_TEMPLATE_FORMATS } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';

export const emailTemplates = pgTable(
  'email_templates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    preheader: text('preheader').notNull().default(''),
    format: text('format', { enum: EMAIL_TEMPLATE_FORMATS }).notNull(),
    content: text('content').notNull(),
    /** Null: the text part is derived from the HTML. */
    textContent: text('text_content'),
    variables: jsonb('variables').$type<string[]>().notNull().default([]),
    /** The current version: the latest row of email_template_versions. */
    version: integer('version').notNull(),
    thumbnailUrl: text('thumbnail_url'),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_templates_business_name_key').on(t.businessId, sql`lower(${t.name})`),
    index('email_templates_business_updated_idx').on(t.businessId, t.updatedAt),
  ],
);

/** One saved version; never changed once written (a restore writes a new version). */
export const emailTemplateVersions = pgTable(
  'email_template_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    templateId: bigint('template_id', { mode: 'number' })
      .notNull()
      .references(() => emailTemplates.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    preheader: text('preheader').notNull().default(''),
    format: text('format', { enum: EMAIL_TEMPLATE_FORMATS }).notNull(),
    content: text('content').notNull(),
    textContent: text('text_content'),
    variables: jsonb('variables').$type<string[]>().notNull().default([]),
    /** The HTML with its Liquid still in it: MJML compiled once, when this version was saved. */
    compiledHtml: text('compiled_html').notNull(),
    /** The Liquid text part derived from compiled_html (null: derived per render, or text_content). */
    compiledText: text('compiled_text'),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('email_template_versions_template_version_key').on(t.templateId, t.version)],
);

/**
 * A business's brand for mail (issue 31): what the visual editor's brand blocks are made of. One
 * row per business, written on its first save; without one the defaults apply.
 */
export const emailBrands = pgTable('email_brands', {
  businessId: bigint('business_id', { mode: 'number' })
    .primaryKey()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  logoUrl: text('logo_url'),
  primaryColor: text('primary_color').notNull(),
  textColor: text('text_color').notNull(),
  fontFamily: text('font_family').notNull(),
  footerAddress: text('footer_address').notNull().default(''),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** A block saved from the visual editor (an MJML fragment), offered in every template of the business. */
export const emailBlocks = pgTable(
  'email_blocks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    content: text('content').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('email_blocks_business_name_key').on(t.businessId, sql`lower(${t.name})`)],
);
