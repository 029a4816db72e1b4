// The audit log (modules/audit): append-only, one row per change to a business.
import { bigint, bigserial, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { AUDIT_ACTOR_TYPES } from '@titan/contracts';
import { ts } from './columns';
import { businesses } from './business';

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    actorType: text('actor_type', { enum: AUDIT_ACTOR_TYPES }).notNull(),
    actorId: bigint('actor_id', { mode: 'number' }),
    actorName: text('actor_name').notNull().default(''),
    action: text('action').notNull(),
    objectType: text('object_type').notNull(),
    objectId: text('object_id'),
    changes: jsonb('changes').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_business_created_idx').on(t.businessId, sql`${t.createdAt} DESC`, sql`${t.id} DESC`),
    index('audit_log_created_idx').on(t.createdAt),
  ],
);
