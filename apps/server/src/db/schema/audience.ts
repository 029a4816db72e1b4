// The audience beyond the inbox (engage.md §3): customer lists, static or segments. Only
// modules/customer-lists/customer-lists.repository.ts touches these tables.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { TSegmentFilter } from '@titan/contracts';
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
    kind: text('kind', { enum: ['static', 'segment'] }).notNull(),
    /** A segment's conditions; null for a static list. */
    filter: jsonb('filter').$type<TSegmentFilter>(),
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
