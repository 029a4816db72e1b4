// The audience beyond the inbox (engage.md §3): customer lists, static or segments (only
// modules/customer-lists/customer-lists.repository.ts touches them), and broadcasts to a list
// (only modules/broadcasts/broadcasts.repository.ts).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  BROADCAST_STATUSES,
  CUSTOMER_LIST_KINDS,
  IMPORT_CONSENTS,
  IMPORT_DELIMITER_NAMES,
  IMPORT_MODES,
  IMPORT_STATUSES,
  type TSegmentFilter,
} from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';
import { customers } from './inbox';

export const customerLists = pgTable(
  'customer_lists',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    kind: text('kind', { enum: CUSTOMER_LIST_KINDS }).notNull(),
    /** A segment's conditions; null for a static list. */
    filter: jsonb('filter').$type<TSegmentFilter>(),
    /** Joining asks the person to confirm first (double opt-in): they stay `pending` until then. */
    doubleOptIn: boolean('double_opt_in').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_lists_business_name_key').on(t.businessId, sql`lower(${t.name})`),
    index('customer_lists_business_created_idx').on(t.businessId, t.createdAt),
  ],
);

/** A static list's members; a deleted customer or list takes its rows with it. */
export const customerListMembers = pgTable(
  'customer_list_members',
  {
    listId: bigint('list_id', { mode: 'number' })
      .notNull()
      .references(() => customerLists.id, { onDelete: 'cascade' }),
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    addedAt: ts('added_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.listId, t.customerId] }),
    index('customer_list_members_customer_idx').on(t.customerId),
  ],
);

/**
 * A broadcast: one send per customer of a list on one channel. The fan-out walks the list in id
 * order; `cursor` (the last customer id fanned out) moves in the transaction that records each
 * batch's sends, so a fan-out stopped anywhere resumes where it left off and sends nothing twice.
 */
export const broadcasts = pgTable(
  'broadcasts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    listId: bigint('list_id', { mode: 'number' }).references(() => customerLists.id, {
      onDelete: 'set null',
    }),
    status: text('status', { enum: BROADCAST_STATUSES }).notNull(),
    /** What each send is made of (the channel's own shape: template, variables, from, …). */
    request: jsonb('request').$type<Record<string, unknown>>().notNull(),
    total: integer('total').notNull().default(0),
    queued: integer('queued').notNull().default(0),
    skippedReasons: jsonb('skipped_reasons').$type<Record<string, number>>().notNull().default({}),
    cursor: bigint('cursor', { mode: 'number' }).notNull().default(0),
    error: text('error'),
    createdBy: bigint('created_by', { mode: 'number' }),
    /**
     * A campaign's broadcast (migration 0058): fed customers by the campaign's sender rather than
     * walking a list, so the resume sweep leaves it to the campaign.
     */
    campaignId: uuid('campaign_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('broadcasts_business_created_idx').on(t.businessId, t.createdAt),
    index('broadcasts_campaign_idx')
      .on(t.campaignId)
      .where(sql`${t.campaignId} is not null`),
  ],
);

/**
 * A CSV import into the directory (only modules/customer-imports touches it). The job commits
 * each batch of rows with `processed_rows`, so a job stopped mid-file resumes after the last
 * committed row.
 */
export const customerImports = pgTable('customer_imports', {
  id: uuid('id').primaryKey().defaultRandom(),
  businessId: bigint('business_id', { mode: 'number' })
    .notNull()
    .references(() => businesses.id, { onDelete: 'cascade' }),
  fileKey: text('file_key').notNull(),
  fileName: text('file_name').notNull(),
  mode: text('mode', { enum: IMPORT_MODES }).notNull(),
  /** As chosen, or as detected ('auto' resolved when the job starts). */
  encoding: text('encoding').notNull(),
  delimiter: text('delimiter', { enum: IMPORT_DELIMITER_NAMES }).notNull().default('comma'),
  /** What consent the rows carry, as the uploader said; `subscribed` comes with its proof. */
  consent: text('consent', { enum: IMPORT_CONSENTS }).notNull().default('unknown'),
  consentProof: text('consent_proof'),
  consentChannels: jsonb('consent_channels').$type<('email' | 'sms' | 'whatsapp')[]>().notNull().default([]),
  /** Ask each row's person to confirm (double opt-in) rather than take the rows' consent. */
  doubleOptIn: boolean('double_opt_in').notNull().default(false),
  listId: bigint('list_id', { mode: 'number' }).references(() => customerLists.id, { onDelete: 'set null' }),
  columns: jsonb('columns').$type<{ name: string; target: string }[]>().notNull(),
  status: text('status', { enum: IMPORT_STATUSES }).notNull(),
  totalRows: integer('total_rows'),
  processedRows: integer('processed_rows').notNull().default(0),
  inserted: integer('inserted').notNull().default(0),
  updated: integer('updated').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  failed: integer('failed').notNull().default(0),
  error: text('error'),
  createdBy: bigint('created_by', { mode: 'number' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  finishedAt: ts('finished_at'),
});

/** The rows an import refused or skipped, with the reason and the row's own values. */
export const customerImportErrors = pgTable(
  'customer_import_errors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    importId: uuid('import_id')
      .notNull()
      .references(() => customerImports.id, { onDelete: 'cascade' }),
    /** The line's row number in the file, the header being row 1. */
    rowNumber: integer('row_number').notNull(),
    reason: text('reason').notNull(),
    values: jsonb('values').$type<string[]>().notNull(),
  },
  (t) => [index('customer_import_errors_import_idx').on(t.importId, t.rowNumber)],
);
