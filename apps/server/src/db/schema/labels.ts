// A business's labels (on conversations and customers) and its canned responses (migration 0047).
import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { businesses } from './business';
import { users } from './identity';
import { conversations, customers } from './inbox';

const businessRef = () =>
  bigint('business_id', { mode: 'number' })
    .notNull()
    .references(() => businesses.id, { onDelete: 'cascade' });

export const labels = pgTable(
  'labels',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: businessRef(),
    name: text('name').notNull(),
    /** `#rrggbb`. */
    color: text('color').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('labels_business_name_key').on(t.businessId, t.name)],
);

const labelRef = () =>
  bigint('label_id', { mode: 'number' })
    .notNull()
    .references(() => labels.id, { onDelete: 'cascade' });

export const conversationLabels = pgTable(
  'conversation_labels',
  {
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    labelId: labelRef(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.labelId], name: 'conversation_labels_pkey' }),
    index('conversation_labels_label_idx').on(t.labelId, t.conversationId),
  ],
);

export const customerLabels = pgTable(
  'customer_labels',
  {
    customerId: bigint('customer_id', { mode: 'number' })
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    labelId: labelRef(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.labelId], name: 'customer_labels_pkey' }),
    index('customer_labels_label_idx').on(t.labelId, t.customerId),
  ],
);

export const cannedResponses = pgTable(
  'canned_responses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: businessRef(),
    shortCode: text('short_code').notNull(),
    content: text('content').notNull(),
    /** A stored file's key (POST /api/upload/), sent with the reply. */
    attachmentKey: text('attachment_key'),
    attachmentName: text('attachment_name'),
    attachmentMimeType: text('attachment_mime_type'),
    attachmentSize: integer('attachment_size'),
    createdBy: bigint('created_by', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('canned_responses_business_code_key').on(t.businessId, t.shortCode)],
);
