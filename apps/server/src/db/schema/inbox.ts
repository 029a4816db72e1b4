// The shared inbox: customers (the visitor directory), chat groups, conversations and messages.
import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import {
  CHANNELS,
  CONSENT_STATUSES,
  CONVERSATION_STATUSES,
  DELIVERY_STATUSES,
  LAUNCHER_POSITIONS,
  MESSAGE_TYPES,
  SENDER_TYPES,
  type TAiResponderSettings,
  type TBusinessHours,
  type TSlaTargets,
} from '@titan/contracts';
import { ts } from './columns';
import { businesses, memberships } from './business';
import { users } from './identity';

export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

type VisitorFormField = { name: string; label: string; type: string; required: boolean; options?: string[] };

const businessRef = () =>
  bigint('business_id', { mode: 'number' })
    .notNull()
    .references(() => businesses.id, { onDelete: 'cascade' });

/** People who write to a business: widget visitors, WhatsApp contacts (the visitor directory). */
export const customers = pgTable(
  'customers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: businessRef(),
    name: text('name'),
    email: text('email'),
    phone: text('phone'),
    /**
     * Who this person is elsewhere, by namespace: `widget:<user_id>` for the embedding site's id
     * (identity verification), `wa:<wa_id>` for a WhatsApp contact. Namespaces never meet.
     */
    externalId: text('external_id'),
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at'),
    /** Visitor tokens carry it when signed; bumping it revokes every token issued before. */
    visitorTokenVersion: integer('visitor_token_version').notNull().default(0),
    /** Consent per channel, kept in step with the suppression list (modules/consent). */
    emailStatus: text('email_status', { enum: CONSENT_STATUSES }).notNull().default('unknown'),
    smsStatus: text('sms_status', { enum: CONSENT_STATUSES }).notNull().default('unknown'),
    whatsappStatus: text('whatsapp_status', { enum: CONSENT_STATUSES }).notNull().default('unknown'),
  },
  (t) => [
    index('customers_business_created_idx').on(t.businessId, t.createdAt),
    index('customers_business_email_idx').on(t.businessId, sql`lower(${t.email})`),
    index('customers_business_phone_idx').on(t.businessId, t.phone),
    uniqueIndex('customers_business_external_key').on(t.businessId, t.externalId),
    // The directory's search and export at scale (migration 0032, pg_trgm).
    index('customers_search_trgm_idx').using(
      'gin',
      sql`(coalesce(${t.name}, '') || ' ' || coalesce(${t.email}, '') || ' ' || coalesce(${t.phone}, '')) gin_trgm_ops`,
    ),
    index('customers_business_id_idx').on(t.businessId, t.id),
  ],
);

export const chatGroups = pgTable(
  'chat_groups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: businessRef(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    greeting: text('greeting').notNull().default(''),
    color: text('color').notNull().default('#111827'),
    launcherPosition: text('launcher_position', { enum: LAUNCHER_POSITIONS }).notNull().default('right'),
    visitorForm: jsonb('visitor_form').$type<VisitorFormField[]>().notNull().default([]),
    /** Origins allowed to embed this group's chat, beside the business's own list. */
    allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default([]),
    /** The widget's language when the visitor's page and browser name no shipped one (issue 30). */
    locale: text('locale').notNull().default('en'),
    /** Text overrides by locale then key (ICU MessageFormat source, checked by contracts). */
    strings: jsonb('strings').$type<Record<string, Record<string, string>>>().notNull().default({}),
    /** The AI first responder's settings (modules/ai); null: never set (off). */
    aiResponder: jsonb('ai_responder').$type<TAiResponderSettings>(),
    /** When the group answers (migration 0069); null: always. */
    businessHours: jsonb('business_hours').$type<TBusinessHours>(),
    /** Sent once per conversation per closed period outside business hours ('' : none). */
    awayMessage: text('away_message').notNull().default(''),
    /** First-response and resolution targets (migration 0069); null: none. */
    sla: jsonb('sla').$type<TSlaTargets>(),
    /** Resolving asks the customer for a rating. */
    csat: boolean('csat').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('chat_groups_business_slug_key').on(t.businessId, t.slug)],
);

/** Staff members of a chat group: agents see the conversations of their groups. */
export const chatGroupMembers = pgTable(
  'chat_group_members',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: businessRef(),
    groupId: bigint('group_id', { mode: 'number' })
      .notNull()
      .references(() => chatGroups.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('chat_group_members_group_user_key').on(t.groupId, t.userId),
    index('chat_group_members_user_idx').on(t.userId, t.businessId),
  ],
);

export const conversations = pgTable(
  'conversations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: businessRef(),
    title: text('title').notNull().default(''),
    status: text('status', { enum: CONVERSATION_STATUSES }).notNull().default('active'),
    isRead: boolean('is_read').notNull().default(false),
    channel: text('channel', { enum: CHANNELS }).notNull(),
    initiatorId: bigint('initiator_id', { mode: 'number' }).references(() => customers.id, {
      onDelete: 'set null',
    }),
    assignedChatGroupId: bigint('assigned_chat_group_id', { mode: 'number' }).references(
      () => chatGroups.id,
      {
        onDelete: 'set null',
      },
    ),
    lastMessageAt: ts('last_message_at'),
    businessReplied: boolean('business_replied').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * The member who owns the conversation, or none. Keyed to the membership (migration 0046): a
     * member of another business cannot be named, and leaving the business unassigns (SET NULL of
     * this column only, which drizzle cannot spell; the migration does).
     */
    assigneeId: bigint('assignee_id', { mode: 'number' }),
    /** With status 'snoozed': when it returns to active (migration 0049). */
    snoozedUntil: ts('snoozed_until'),
    /** Waiting to be auto-assigned since (migration 0048's trigger keeps it). */
    awaitingAssignmentAt: ts('awaiting_assignment_at'),
    /** When the AI first responder handed the conversation to a person (migration 0070). */
    aiHandedOffAt: ts('ai_handed_off_at'),
    /** The latest mail the customer sent here scored as spam (email.spam.ts; migration 0071). */
    spam: boolean('spam').notNull().default(false),
    /** SLA clocks (migration 0069's trigger): last reopened (null: created_at), first reply since, resolved. */
    openedAt: ts('opened_at'),
    firstResponseAt: ts('first_response_at'),
    resolvedAt: ts('resolved_at'),
    /**
     * Since when the customer waits for an answer: their first message since the business last
     * answered; null once it answers (migration 0079). Journeys' "unanswered for N hours" reads it.
     */
    awaitingReplySince: ts('awaiting_reply_since'),
  },
  (t) => {
    // The list is ordered by last_message_at desc, id desc within a business; each filter column
    // gets an index leading with it so a filtered page is an index range scan, not a sort.
    const order = [sql`${t.lastMessageAt} desc nulls last`, sql`${t.id} desc`] as const;
    return [
      index('conversations_list_idx').on(t.businessId, ...order),
      index('conversations_status_idx').on(t.businessId, t.status, ...order),
      index('conversations_read_idx').on(t.businessId, t.isRead, ...order),
      index('conversations_replied_idx').on(t.businessId, t.businessReplied, ...order),
      index('conversations_channel_idx').on(t.businessId, t.channel, ...order),
      // Covering: a created_at range is answered from the index, then only the page is sorted.
      index('conversations_created_idx').on(t.businessId, t.createdAt, t.lastMessageAt, t.id),
      index('conversations_initiator_idx').on(t.initiatorId),
      index('conversations_group_idx').on(t.assignedChatGroupId),
      index('conversations_assignee_idx').on(t.businessId, t.assigneeId, ...order),
      // Search answers a matching customer with their conversations, newest first (0049).
      index('conversations_initiator_recent_idx').on(t.initiatorId, ...order),
      // The snooze wake-up job's due conversations (0049).
      index('conversations_snoozed_until_idx')
        .on(t.snoozedUntil)
        .where(sql`${t.status} = 'snoozed'`),
      index('conversations_sla_open_idx')
        .on(t.assignedChatGroupId, t.id)
        .where(sql`${t.status} <> 'resolved'`),
      index('conversations_awaiting_reply_idx')
        .on(t.businessId, t.awaitingReplySince, t.id)
        .where(sql`${t.awaitingReplySince} is not null`),
      index('conversations_awaiting_assignment_idx')
        .on(t.assignedChatGroupId, t.awaitingAssignmentAt, t.id)
        .where(sql`${t.awaitingAssignmentAt} is not null`),
      foreignKey({
        name: 'conversations_assignee_membership_fk',
        columns: [t.businessId, t.assigneeId],
        foreignColumns: [memberships.businessId, memberships.userId],
        // Migration 0046 writes `ON DELETE SET NULL ("assignee_id")` (PostgreSQL 15's column list:
        // business_id stays); drizzle cannot spell the list, so a regenerated migration must add it.
      }).onDelete('set null'),
    ];
  },
);

/** Own-channel (Titan Message) messages. */
/**
 * Characters of a message the inbox's full-text search indexes (migration 0080): a long mail's
 * first pages; its every word would cost PostgreSQL a GIN entry for text no search shows.
 */
export const MESSAGE_SEARCH_CHARS = 10_000;

/** The indexed search document of `messages.content`: the search statement uses this expression. */
export const messageSearchVector = (content: AnyPgColumn | SQL) =>
  sql`to_tsvector('simple', left(${content}, ${sql.raw(String(MESSAGE_SEARCH_CHARS))}))`;

export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    businessId: businessRef(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    /** note and activity: the team's alone (see contracts INTERNAL_MESSAGE_TYPES). */
    messageType: text('message_type', { enum: MESSAGE_TYPES }).notNull().default('text'),
    senderType: text('sender_type', { enum: SENDER_TYPES }).notNull(),
    /** A user id for staff, a customer id for customers. */
    senderId: bigint('sender_id', { mode: 'number' }),
    isRead: boolean('is_read').notNull().default(false),
    metaData: jsonb('meta_data').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: DELIVERY_STATUSES }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('messages_conversation_idx').on(t.conversationId, t.id),
    // The inbox's full-text search (migrations 0049, 0080): notes included, activity lines not;
    // the first MESSAGE_SEARCH_CHARS characters of each message.
    index('messages_search_idx')
      .using('gin', messageSearchVector(t.content))
      .where(sql`${t.messageType} <> 'activity'`),
    // Email threading (migration 0055): a Message-ID finds its conversation.
    index('messages_email_message_id_idx')
      .on(t.businessId, sql`(${t.metaData} ->> 'message_id')`)
      .where(sql`(${t.metaData} ->> 'message_id') is not null`),
    // Whether a message holds a stored file: chat media retention keeps those.
    index('messages_file_key_idx')
      .on(sql`(${t.metaData} ->> 'key')`)
      .where(sql`${t.messageType} = 'file'`),
  ],
);

/**
 * The WhatsApp media a message holds, read from its payload (meta_data): the id of an image, video,
 * audio, document or sticker message, or of a template's media header (rendered first among the
 * template's components). Null for every other message. Indexed (wa_messages_media_idx): a query
 * finds the messages holding a media through this same expression.
 */
export const waMessageMediaId = (metaData: AnyPgColumn) =>
  sql`(case
    when ${metaData} ->> 'type' in ('image', 'video', 'audio', 'document', 'sticker')
      then ${metaData} -> (${metaData} ->> 'type') ->> 'id'
    when ${metaData} ->> 'type' = 'template'
      then coalesce(
        ${metaData} #>> '{template,components,0,image,id}',
        ${metaData} #>> '{template,components,0,video,id}',
        ${metaData} #>> '{template,components,0,document,id}'
      )
  end)`;

/**
 * WhatsApp messages: ids are Meta's wamids, unique per business (the business whose number sent or
 * received them): a wamid another business reports never names this one's message. `timestamp` is
 * Meta's, in seconds.
 */
export const waMessages = pgTable(
  'wa_messages',
  {
    id: text('id').notNull(),
    businessId: businessRef(),
    conversationId: bigint('conversation_id', { mode: 'number' })
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    content: text('content').notNull().default(''),
    /** note and activity: the team's alone (see contracts INTERNAL_MESSAGE_TYPES). */
    messageType: text('message_type', { enum: MESSAGE_TYPES }).notNull().default('text'),
    senderType: text('sender_type', { enum: SENDER_TYPES }).notNull(),
    senderId: bigint('sender_id', { mode: 'number' }),
    isRead: boolean('is_read').notNull().default(false),
    metaData: jsonb('meta_data').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: DELIVERY_STATUSES }),
    timestamp: integer('timestamp'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** Insertion order, for stable paging (wamids do not sort). */
    position: bigserial('position', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.businessId, t.id] }),
    index('wa_messages_conversation_idx').on(t.conversationId, t.position),
    // The inbox's full-text search (migration 0049).
    index('wa_messages_search_idx')
      .using('gin', sql`to_tsvector('simple', ${t.content})`)
      .where(sql`${t.messageType} <> 'activity'`),
    // Who may see a media: the conversations holding it (most messages hold none).
    index('wa_messages_media_idx')
      .on(waMessageMediaId(t.metaData))
      .where(sql`${waMessageMediaId(t.metaData)} is not null`),
  ],
);

/**
 * Every change to a realtime table, numbered: the seq of realtime events. Reconnecting clients
 * resume from the last seq they saw; rows older than a day are pruned.
 */
export const changeLog = pgTable(
  'change_log',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    tableName: text('table_name').notNull(),
    op: text('op').notNull(),
    rowId: text('row_id').notNull(),
    conversationId: bigint('conversation_id', { mode: 'number' }),
    oldLastMessageAt: ts('old_last_message_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('change_log_business_seq_idx').on(t.businessId, t.seq),
    index('change_log_created_idx').on(t.createdAt),
  ],
);

/**
 * Exact conversation counts per business and filter bucket, kept by a trigger on conversations,
 * so the list's count is a sum over at most 16 rows instead of a scan of every matching row.
 */
export const conversationCounts = pgTable(
  'conversation_counts',
  {
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    status: text('status').notNull(),
    isRead: boolean('is_read').notNull(),
    businessReplied: boolean('business_replied').notNull(),
    channel: text('channel').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.businessId, t.status, t.isRead, t.businessReplied, t.channel] })],
);

/**
 * Conversations per UTC day and per UTC month of created_at and of last_message_at, by the same
 * filter columns, so a date-range count sums whole months and days and counts only the rows of its
 * two edge days. Kept exact by a trigger (migrations 0012, 0015).
 */
export const conversationDayCounts = pgTable(
  'conversation_day_counts',
  {
    businessId: bigint('business_id', { mode: 'number' }).notNull(),
    /**
     * 'c': the day of created_at; 'l': the day of last_message_at; 'cm' and 'lm': their months,
     * `day` being the month's first day.
     */
    axis: text('axis', { enum: ['c', 'l', 'cm', 'lm'] }).notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    status: text('status').notNull(),
    isRead: boolean('is_read').notNull(),
    businessReplied: boolean('business_replied').notNull(),
    channel: text('channel').notNull(),
    n: bigint('n', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    primaryKey({
      columns: [t.businessId, t.axis, t.day, t.status, t.isRead, t.businessReplied, t.channel],
    }),
  ],
);
