// The only code that touches the WhatsApp tables.
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  max,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  conversations,
  customers,
  users,
  whatsappAccounts,
  whatsappLogs,
  whatsappMedia,
  whatsappStatusEvents,
  whatsappTemplates,
  whatsappWebhookEvents,
  waMessages,
} from '../../db/schema';
import type { Queryable } from '../auth/auth.repository';

export type WhatsappAccountRow = typeof whatsappAccounts.$inferSelect;

export async function findAccountByBusiness(db: Db, businessId: number): Promise<WhatsappAccountRow | null> {
  const [row] = await db
    .select()
    .from(whatsappAccounts)
    .where(eq(whatsappAccounts.businessId, businessId))
    .limit(1);
  return row ?? null;
}

export async function findAccountByPhoneNumberId(
  db: Db,
  phoneNumberId: string,
): Promise<WhatsappAccountRow | null> {
  const [row] = await db
    .select()
    .from(whatsappAccounts)
    .where(eq(whatsappAccounts.phoneNumberId, phoneNumberId))
    .limit(1);
  return row ?? null;
}

export async function findAccountsByVerifyToken(db: Db, token: string): Promise<WhatsappAccountRow[]> {
  return db.select().from(whatsappAccounts).where(eq(whatsappAccounts.verifyToken, token)).limit(2);
}

export async function findAccountById(db: Queryable, id: number): Promise<WhatsappAccountRow | null> {
  const [row] = await db.select().from(whatsappAccounts).where(eq(whatsappAccounts.id, id)).limit(1);
  return row ?? null;
}

export async function upsertAccount(
  db: Db,
  values: typeof whatsappAccounts.$inferInsert,
): Promise<WhatsappAccountRow> {
  const [row] = await db
    .insert(whatsappAccounts)
    .values(values)
    .onConflictDoUpdate({
      target: whatsappAccounts.businessId,
      set: {
        phoneNumberId: values.phoneNumberId,
        wabaId: values.wabaId,
        displayPhoneNumber: values.displayPhoneNumber,
        verifyToken: values.verifyToken,
        accessTokenSealed: values.accessTokenSealed,
        appSecretSealed: values.appSecretSealed,
        updatedAt: new Date(),
      },
    })
    .returning();
  return row!;
}

export async function insertWebhookEvent(
  db: Db,
  accountId: number,
  payload: Record<string, unknown>,
): Promise<number> {
  const [row] = await db
    .insert(whatsappWebhookEvents)
    .values({ accountId, payload })
    .returning({ id: whatsappWebhookEvents.id });
  return row!.id;
}

export async function findWebhookEvent(db: Db, id: number) {
  const [row] = await db
    .select()
    .from(whatsappWebhookEvents)
    .where(eq(whatsappWebhookEvents.id, id))
    .limit(1);
  return row ?? null;
}

export async function markWebhookEventProcessed(db: Queryable, id: number) {
  await db
    .update(whatsappWebhookEvents)
    .set({ processedAt: new Date() })
    .where(eq(whatsappWebhookEvents.id, id));
}

export async function insertStatusEvent(db: Queryable, values: typeof whatsappStatusEvents.$inferInsert) {
  await db.insert(whatsappStatusEvents).values(values).onConflictDoNothing();
}

const RANK = sql`(case status when 'accepted' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 when 'failed' then 5 else 0 end)`;

/**
 * Applies the strongest known status to a stored message: accepted < sent < delivered < read,
 * failed terminal; an older report never lowers it.
 */
export async function applyBestStatus(db: Queryable, messageId: string) {
  await db.execute(sql`
    update wa_messages m set status = best.status,
      meta_data = case when best.status = 'failed'
        then m.meta_data || jsonb_build_object('errors', best.payload->'errors') else m.meta_data end
    from (
      select status, payload from whatsapp_status_events
      where message_id = ${messageId}
      order by ${RANK} desc limit 1
    ) best
    where m.id = ${messageId}
      and (m.status is distinct from best.status)
      and coalesce(m.status, '') <> 'failed'
      and (case best.status when 'accepted' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 when 'failed' then 5 else 0 end)
        > (case coalesce(m.status, '') when 'accepted' then 1 when 'sent' then 2 when 'delivered' then 3 when 'read' then 4 when 'failed' then 5 else 0 end)`);
}

export async function insertInboundMessage(
  db: Queryable,
  values: typeof waMessages.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(waMessages)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: waMessages.id });
  return rows.length === 1;
}

// ---- Templates, logs and usage (whatsapp.templates.ts, whatsapp.logs.ts) ----

export type WhatsappTemplateRow = typeof whatsappTemplates.$inferSelect;
export type WhatsappTemplateValues = Omit<typeof whatsappTemplates.$inferInsert, 'id' | 'businessId'>;

/** `%term%` for ILIKE, with the term's own wildcards taken literally. */
const containing = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Makes the stored templates exactly Meta's list: upserts each (business, name, language) and
 * deletes the rest. One sync per business at a time, so two never delete each other's rows.
 */
export async function replaceTemplates(
  db: Db,
  businessId: number,
  templates: WhatsappTemplateValues[],
): Promise<{ synced: number; removed: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wa-templates:${businessId}`}))`);
    const syncedAt = new Date();
    for (let i = 0; i < templates.length; i += 500) {
      await tx
        .insert(whatsappTemplates)
        .values(templates.slice(i, i + 500).map((t) => ({ ...t, businessId, syncedAt })))
        .onConflictDoUpdate({
          target: [whatsappTemplates.businessId, whatsappTemplates.name, whatsappTemplates.language],
          set: {
            metaId: sql`excluded.meta_id`,
            status: sql`excluded.status`,
            category: sql`excluded.category`,
            parameterFormat: sql`excluded.parameter_format`,
            components: sql`excluded.components`,
            syncedAt,
          },
        });
    }
    const listed = new Set(templates.map((t) => `${t.name}\u0000${t.language}`));
    const stored = await tx
      .select({
        id: whatsappTemplates.id,
        name: whatsappTemplates.name,
        language: whatsappTemplates.language,
      })
      .from(whatsappTemplates)
      .where(eq(whatsappTemplates.businessId, businessId));
    const gone = stored.filter((t) => !listed.has(`${t.name}\u0000${t.language}`)).map((t) => t.id);
    for (let i = 0; i < gone.length; i += 500) {
      await tx.delete(whatsappTemplates).where(inArray(whatsappTemplates.id, gone.slice(i, i + 500)));
    }
    return { synced: templates.length, removed: gone.length };
  });
}

export async function listTemplates(
  db: Db,
  businessId: number,
  filter: { status?: string; search?: string },
): Promise<WhatsappTemplateRow[]> {
  return db
    .select()
    .from(whatsappTemplates)
    .where(
      and(
        eq(whatsappTemplates.businessId, businessId),
        filter.status ? eq(whatsappTemplates.status, filter.status) : undefined,
        filter.search ? ilike(whatsappTemplates.name, containing(filter.search)) : undefined,
      ),
    )
    .orderBy(asc(whatsappTemplates.name), asc(whatsappTemplates.language));
}

/** A template by name; without a language the approved one first, then by language. */
export async function findTemplate(
  db: Db,
  businessId: number,
  name: string,
  language?: string,
): Promise<WhatsappTemplateRow | null> {
  const [row] = await db
    .select()
    .from(whatsappTemplates)
    .where(
      and(
        eq(whatsappTemplates.businessId, businessId),
        eq(whatsappTemplates.name, name),
        language ? eq(whatsappTemplates.language, language) : undefined,
      ),
    )
    .orderBy(sql`(${whatsappTemplates.status} = 'APPROVED') desc`, asc(whatsappTemplates.language))
    .limit(1);
  return row ?? null;
}

/** The WhatsApp id a conversation's customer is reached at (`wa:<digits>`), if any. */
export async function findCustomerExternalId(
  db: Db,
  businessId: number,
  customerId: number,
): Promise<string | null> {
  const [row] = await db
    .select({ externalId: customers.externalId })
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.id, customerId)))
    .limit(1);
  return row?.externalId ?? null;
}

/**
 * Undoes a conversation opened for a first template that Meta refused: deleted only while it holds
 * no message; its log rows stay, detached.
 */
export async function deleteConversationIfEmpty(db: Queryable, businessId: number, conversationId: number) {
  const deleted = await db
    .delete(conversations)
    .where(
      and(
        eq(conversations.businessId, businessId),
        eq(conversations.id, conversationId),
        sql`not exists (select 1 from wa_messages m where m.conversation_id = ${conversations.id})`,
      ),
    )
    .returning({ id: conversations.id });
  if (deleted.length === 0) return;
  await db
    .update(whatsappLogs)
    .set({ conversationId: null })
    .where(and(eq(whatsappLogs.businessId, businessId), eq(whatsappLogs.conversationId, conversationId)));
}

export type WhatsappLogFilter = {
  status?: string;
  search?: string;
  created_at__gte?: Date;
  created_at__lte?: Date;
};

function logConditions(businessId: number, filter: WhatsappLogFilter): SQL[] {
  const where: SQL[] = [eq(whatsappLogs.businessId, businessId)];
  if (filter.status) where.push(eq(whatsappLogs.status, filter.status));
  if (filter.created_at__gte) where.push(gte(whatsappLogs.createdAt, filter.created_at__gte));
  if (filter.created_at__lte) where.push(lte(whatsappLogs.createdAt, filter.created_at__lte));
  if (filter.search) {
    const term = containing(filter.search);
    const matches = [
      ilike(whatsappLogs.recipient, term),
      ilike(whatsappLogs.templateName, term),
      ilike(whatsappLogs.wamid, term),
    ];
    // "+1 (555) 010-0200" finds the digits-only recipient.
    const digits = filter.search.replace(/\D/g, '');
    if (digits.length >= 3 && digits !== filter.search)
      matches.push(ilike(whatsappLogs.recipient, `%${digits}%`));
    where.push(or(...matches)!);
  }
  return where;
}

const logColumns = {
  log: whatsappLogs,
  sender: { id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email },
};

export type WhatsappLogRow = {
  log: typeof whatsappLogs.$inferSelect;
  sender: { id: number; firstName: string; lastName: string; email: string } | null;
};

/** A page of logs, newest first, with the total. */
export async function listLogs(
  db: Db,
  businessId: number,
  filter: WhatsappLogFilter,
  limit: number,
  offset: number,
): Promise<{ rows: WhatsappLogRow[]; count: number }> {
  const where = and(...logConditions(businessId, filter));
  const [rows, [total]] = await Promise.all([
    db
      .select(logColumns)
      .from(whatsappLogs)
      .leftJoin(users, eq(users.id, whatsappLogs.sentBy))
      .where(where)
      .orderBy(desc(whatsappLogs.createdAt), desc(whatsappLogs.trackingId))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(whatsappLogs).where(where),
  ]);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Where a batch of the export ended: created_at as Postgres text (microseconds kept) and the id. */
export type LogCursor = { createdAt: string; trackingId: string };

/** The next `limit` logs after `cursor`, newest first (keyset paging for the CSV export). */
export async function listLogsAfter(
  db: Db,
  businessId: number,
  filter: WhatsappLogFilter,
  cursor: LogCursor | null,
  limit: number,
): Promise<{ rows: WhatsappLogRow[]; next: LogCursor | null }> {
  const where = logConditions(businessId, filter);
  if (cursor)
    where.push(
      sql`(${whatsappLogs.createdAt}, ${whatsappLogs.trackingId}) < (${cursor.createdAt}::timestamptz, ${cursor.trackingId}::uuid)`,
    );
  const rows = await db
    .select({ ...logColumns, cursor: sql<string>`${whatsappLogs.createdAt}::text` })
    .from(whatsappLogs)
    .leftJoin(users, eq(users.id, whatsappLogs.sentBy))
    .where(and(...where))
    .orderBy(desc(whatsappLogs.createdAt), desc(whatsappLogs.trackingId))
    .limit(limit);
  const last = rows.at(-1);
  return {
    rows,
    next: rows.length === limit && last ? { createdAt: last.cursor, trackingId: last.log.trackingId } : null,
  };
}

export async function findLog(
  db: Db,
  businessId: number,
  trackingId: string,
): Promise<WhatsappLogRow | null> {
  const [row] = await db
    .select(logColumns)
    .from(whatsappLogs)
    .leftJoin(users, eq(users.id, whatsappLogs.sentBy))
    .where(and(eq(whatsappLogs.businessId, businessId), eq(whatsappLogs.trackingId, trackingId)))
    .limit(1);
  return row ?? null;
}

/** Meta's status reports for one message: accepted < sent < delivered < read, failed last. */
export async function listStatusEvents(db: Db, businessId: number, wamid: string) {
  return db
    .select()
    .from(whatsappStatusEvents)
    .where(and(eq(whatsappStatusEvents.businessId, businessId), eq(whatsappStatusEvents.messageId, wamid)))
    .orderBy(
      RANK,
      sql`${whatsappStatusEvents.timestamp} asc nulls last`,
      asc(whatsappStatusEvents.receivedAt),
    );
}

/** Messages Meta accepted in [from, to), by pricing category (lower case; null when not priced yet). */
export async function usageByCategory(db: Db, businessId: number, from: Date, to: Date) {
  const rows = await db
    .select({
      category: sql<string | null>`lower(${whatsappLogs.pricingCategory})`,
      messages: count(),
      billable: sql<string>`count(*) filter (where ${whatsappLogs.billable})`,
    })
    .from(whatsappLogs)
    .where(
      and(
        eq(whatsappLogs.businessId, businessId),
        isNotNull(whatsappLogs.wamid),
        gte(whatsappLogs.createdAt, from),
        lt(whatsappLogs.createdAt, to),
      ),
    )
    .groupBy(sql`lower(${whatsappLogs.pricingCategory})`);
  return rows.map((r) => ({
    category: r.category,
    messages: Number(r.messages),
    billable: Number(r.billable),
  }));
}

// ---- Sending side: media, the 24-hour window, read receipts ----

export type WhatsappMediaRow = typeof whatsappMedia.$inferSelect;

export async function insertMedia(db: Queryable, values: typeof whatsappMedia.$inferInsert) {
  const [row] = await db.insert(whatsappMedia).values(values).returning();
  return row!;
}

/** A customer's media, recorded once however often Meta redelivers the message. */
export async function insertInboundMedia(db: Queryable, values: typeof whatsappMedia.$inferInsert) {
  await db.insert(whatsappMedia).values(values).onConflictDoNothing();
}

export async function findMedia(db: Queryable, id: string): Promise<WhatsappMediaRow | null> {
  const [row] = await db.select().from(whatsappMedia).where(eq(whatsappMedia.id, id)).limit(1);
  return row ?? null;
}

export async function findBusinessMedia(
  db: Queryable,
  businessId: number,
  id: string,
): Promise<WhatsappMediaRow | null> {
  const [row] = await db
    .select()
    .from(whatsappMedia)
    .where(and(eq(whatsappMedia.businessId, businessId), eq(whatsappMedia.id, id)))
    .limit(1);
  return row ?? null;
}

export async function countMediaAttempt(db: Queryable, id: string) {
  await db
    .update(whatsappMedia)
    .set({ attempts: sql`${whatsappMedia.attempts} + 1` })
    .where(eq(whatsappMedia.id, id));
}

export async function recordMediaError(db: Queryable, id: string, message: string) {
  await db
    .update(whatsappMedia)
    .set({ lastError: message.slice(0, 1000) })
    .where(eq(whatsappMedia.id, id));
}

/** Sets where the bytes are kept; false when another fetch stored them first. */
export async function markMediaStored(
  db: Queryable,
  id: string,
  values: { storageKey: string; mimeType: string; fileSize: number },
): Promise<boolean> {
  const rows = await db
    .update(whatsappMedia)
    .set({ ...values, storedAt: new Date(), lastError: null })
    .where(and(eq(whatsappMedia.id, id), isNull(whatsappMedia.storageKey)))
    .returning({ id: whatsappMedia.id });
  return rows.length === 1;
}

/** When the customer last wrote in a conversation: the start of the 24-hour window. */
export async function findLastCustomerMessageAt(db: Queryable, conversationId: number): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(waMessages.createdAt) })
    .from(waMessages)
    .where(and(eq(waMessages.conversationId, conversationId), eq(waMessages.senderType, 'customer')))
    .limit(1);
  return row?.at ?? null;
}

/** The customer's newest message in a conversation, the one a read receipt names. */
export async function findNewestCustomerWamid(
  db: Queryable,
  businessId: number,
  conversationId: number,
): Promise<string | null> {
  const [row] = await db
    .select({ id: waMessages.id })
    .from(waMessages)
    .where(
      and(
        eq(waMessages.businessId, businessId),
        eq(waMessages.conversationId, conversationId),
        eq(waMessages.senderType, 'customer'),
      ),
    )
    .orderBy(desc(waMessages.createdAt), desc(waMessages.position))
    .limit(1);
  return row?.id ?? null;
}

export async function findCustomerByExternalId(db: Queryable, businessId: number, externalId: string) {
  const [row] = await db
    .select()
    .from(customers)
    .where(and(eq(customers.businessId, businessId), eq(customers.externalId, externalId)))
    .limit(1);
  return row ?? null;
}
