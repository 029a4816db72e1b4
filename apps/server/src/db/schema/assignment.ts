// Presence and auto-assignment (migration 0048): a member's online / away / offline, and each chat
// group's assignment mode, capacity and round-robin cursor.
import { bigint, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { businesses } from './business';
import { users } from './identity';
import { chatGroups } from './inbox';

export const PRESENCE_STATUSES = ['online', 'away', 'offline'] as const;
export const ASSIGNMENT_MODES = ['off', 'round_robin', 'least_busy'] as const;

export const userPresence = pgTable(
  'user_presence',
  {
    userId: bigint('user_id', { mode: 'number' })
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: PRESENCE_STATUSES }).notNull().default('offline'),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('user_presence_status_idx').on(t.status, t.lastSeenAt)],
);

export const chatGroupAssignment = pgTable(
  'chat_group_assignment',
  {
    chatGroupId: bigint('chat_group_id', { mode: 'number' })
      .primaryKey()
      .references(() => chatGroups.id, { onDelete: 'cascade' }),
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    mode: text('mode', { enum: ASSIGNMENT_MODES }).notNull().default('off'),
    capacity: integer('capacity').notNull().default(10),
    /** Round robin: the member assigned last. */
    lastUserId: bigint('last_user_id', { mode: 'number' }),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('chat_group_assignment_business_idx').on(t.businessId)],
);
