// The only code that writes the WhatsApp tables: the accounts, webhook events, templates, media and
// wa_messages, the WhatsApp message records (docs/design/database.md). Conversations are
// written through the conversations module's face.
import { and, asc, desc, eq, exists, ilike, inArray, isNull, max, notExists, or, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import {
  conversations,
  whatsappAccounts,
  whatsappMedia,
  whatsappTemplates,
  waMessageMediaId,
  waMessages,
} from '../../db/schema';
import { type InboxScope, scopeConditions } from '../../platform/inbox-scope';
import { advisoryLock, lockKeyOf, recordset, rowsOf } from '../../db/sql';

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

// ---- Receiving side: the webhook queue and set-based processing (whatsapp.inbound.ts) ----

/**
 * Deliveries as Meta sent them, in one statement: each raw body is cast to jsonb by PostgreSQL,
 * not re-serialised.
 */
export async function insertWebhookEvents(
  db: Db,
  events: { accountId: number; rawBody: string }[],
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => sql`(${e.accountId}, ${e.rawBody}::jsonb)`);
  await db.execute(
    sql`insert into whatsapp_webhook_events (account_id, payload) values ${sql.join(rows, sql`, `)}`,
  );
}

export type PendingWebhookEvent = { id: number; businessId: number; payload: Record<string, unknown> };

/**
 * Locks up to `limit` deliveries that are due, oldest first, skipping those another processor
 * holds; `onlyId` claims that one delivery (when it is still pending and free).
 */
export async function claimWebhookEvents(
  db: Queryable,
  limit: number,
  onlyId?: number,
): Promise<PendingWebhookEvent[]> {
  const rows = await rowsOf<{ id: string | number; business_id: string | number; payload: unknown }>(
    db,
    sql`select e.id, a.business_id, e.payload
      from whatsapp_webhook_events e join whatsapp_accounts a on a.id = e.account_id
      where e.processed_at is null
        and ${onlyId === undefined ? sql`e.next_attempt_at <= now()` : sql`e.id = ${onlyId}`}
      order by e.next_attempt_at, e.id
      limit ${limit}
      for update of e skip locked`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    businessId: Number(r.business_id),
    payload: (r.payload ?? {}) as Record<string, unknown>,
  }));
}

export async function markWebhookEventsProcessed(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`update whatsapp_webhook_events set processed_at = now(), last_error = null
    where id in (select (jsonb_array_elements_text(${recordset(ids)}))::bigint)`);
}

/**
 * A delivery that failed on its own: counted, its error kept, and put off for `retryDelaySeconds`
 * doubled per earlier attempt (at most `maxDelaySeconds`); after `maxAttempts` it is no longer due.
 */
export async function recordWebhookEventFailure(
  db: Queryable,
  id: number,
  error: string,
  policy: { retryDelaySeconds: number; maxDelaySeconds: number; maxAttempts: number },
): Promise<void> {
  await db.execute(sql`update whatsapp_webhook_events set
      attempts = attempts + 1,
      last_error = ${error.slice(0, 2000)},
      next_attempt_at = case when attempts + 1 >= ${policy.maxAttempts} then null
        else now() + make_interval(secs => least(${policy.maxDelaySeconds}::float8,
          ${policy.retryDelaySeconds}::float8 * power(2, attempts))) end
    where id = ${id} and processed_at is null`);
}

/**
 * Retention, one batch in one statement: up to `limit` deliveries received before `cutoff` that are
 * processed or given up (next_attempt_at null), oldest first by whatsapp_webhook_events_done_idx,
 * skipping rows a processor holds; pending ones are never touched. With a processed delivery go
 * the statuses it reported (kept under the business of the number that reported them) whose wamid
 * has no whatsapp_logs row of that business (not sent by Titan, or never stored): nothing reads
 * them any more. A logged send's statuses are its timeline in the logs and
 * stay as long as the log. Given-up deliveries stored no statuses, so none are taken with them.
 */
export async function deleteExpiredWebhookEvents(
  db: Queryable,
  cutoff: Date,
  limit: number,
): Promise<{ events: number; reported: { businessId: number; providerMessageId: string; type: string }[] }> {
  const rows = await rowsOf<{
    events: number | string;
    reported: { b: number; m: string; s: string }[] | null;
  }>(
    db,
    sql`with doomed as (
        select id from whatsapp_webhook_events
        where (processed_at is not null or next_attempt_at is null)
          and received_at < ${cutoff.toISOString()}::timestamptz
        order by received_at, id
        limit ${limit}
        for update skip locked
      ), deleted as (
        delete from whatsapp_webhook_events where id = any(array(select id from doomed))
        returning account_id, processed_at, payload
      ), reported as (
        select distinct a.business_id as b, st.item->>'id' as m, st.item->>'status' as s
        from deleted join whatsapp_accounts a on a.id = deleted.account_id,
          jsonb_path_query(deleted.payload,
            '$.entry[*].changes[*] ? (@.field == "messages").value.statuses[*]') as st(item)
        where deleted.processed_at is not null
      )
      select (select count(*) from deleted)::int as events,
        (select jsonb_agg(to_jsonb(reported)) from reported where m is not null and s is not null) as reported`,
  );
  const row = rows[0];
  return {
    events: Number(row?.events ?? 0),
    reported: (row?.reported ?? []).map((r) => ({
      businessId: Number(r.b),
      providerMessageId: r.m,
      type: r.s,
    })),
  };
}

/**
 * Takes the per-contact locks of a batch in one order every processor shares (the lock keys
 * sorted), so two batches with contacts in common wait for each other instead of deadlocking.
 */
export async function lockContacts(db: Queryable, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  // pg_advisory_xact_lock is volatile, so it runs after the sort, in key order.
  await db.execute(sql`select pg_advisory_xact_lock(k)
    from (select distinct ${lockKeyOf(sql`v`)} as k from jsonb_array_elements_text(${recordset(keys)}) v) keys
    order by k`);
}

/** A wamid as a key within its business: the same wamid in two businesses is two messages. */
export const wamidKey = (businessId: number, id: string) => `${businessId}:${id}`;

/** Which of `keys` are already stored in their business (redeliveries), as `wamidKey`s. */
export async function findStoredWamids(
  db: Queryable,
  keys: { businessId: number; id: string }[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await rowsOf<{ business_id: string | number; id: string }>(
    db,
    sql`select m.business_id, m.id
      from jsonb_to_recordset(${recordset(
        keys.map((k) => ({ business_id: k.businessId, id: k.id })),
      )}) as k(business_id bigint, id text)
      join wa_messages m on m.business_id = k.business_id and m.id = k.id`,
  );
  return new Set(rows.map((r) => wamidKey(Number(r.business_id), r.id)));
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
    await advisoryLock(tx, `wa-templates:${businessId}`);
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

// ---- Sending side: media, the 24-hour window, read receipts ----

export type WhatsappMediaRow = typeof whatsappMedia.$inferSelect;

export async function insertMedia(db: Queryable, values: typeof whatsappMedia.$inferInsert) {
  const [row] = await db.insert(whatsappMedia).values(values).returning();
  return row!;
}

/** A customer's media, recorded once per business however often Meta redelivers the message. */
export async function insertInboundMedia(db: Queryable, values: typeof whatsappMedia.$inferInsert) {
  await db
    .insert(whatsappMedia)
    .values(values)
    .onConflictDoNothing({ target: [whatsappMedia.businessId, whatsappMedia.id] });
}

/** The businesses holding a media id (a fetch queued before media were keyed by business). */
export async function findMediaBusinesses(db: Queryable, id: string): Promise<number[]> {
  const rows = await db
    .select({ businessId: whatsappMedia.businessId })
    .from(whatsappMedia)
    .where(eq(whatsappMedia.id, id))
    .limit(2);
  return rows.map((r) => r.businessId);
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

/**
 * A media of the scope's business that its viewer may see. A whole-business scope (owners, admins,
 * API keys) sees them all. An agent sees a media held by a message of a conversation they may see;
 * and, of the files uploaded to send, their own uploads and those no message holds yet (the file
 * in a composer, before its send). One statement, through wa_messages_media_idx.
 */
export async function findVisibleMedia(
  db: Queryable,
  scope: InboxScope,
  userId: number | null,
  id: string,
): Promise<WhatsappMediaRow | null> {
  if (scope.groupIds === null) return findBusinessMedia(db, scope.businessId, id);
  const holds = and(
    sql`${waMessageMediaId(waMessages.metaData)} = ${id}`,
    eq(waMessages.businessId, scope.businessId),
  );
  const heldInScope = db
    .select({ one: sql`1` })
    .from(waMessages)
    .innerJoin(conversations, eq(conversations.id, waMessages.conversationId))
    .where(and(holds, ...scopeConditions(scope)));
  const heldAnywhere = db
    .select({ one: sql`1` })
    .from(waMessages)
    .where(holds);
  const [row] = await db
    .select()
    .from(whatsappMedia)
    .where(
      and(
        eq(whatsappMedia.businessId, scope.businessId),
        eq(whatsappMedia.id, id),
        or(
          exists(heldInScope),
          and(
            eq(whatsappMedia.direction, 'outbound'),
            or(userId === null ? undefined : eq(whatsappMedia.uploadedBy, userId), notExists(heldAnywhere)),
          ),
        ),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function countMediaAttempt(db: Queryable, businessId: number, id: string) {
  await db
    .update(whatsappMedia)
    .set({ attempts: sql`${whatsappMedia.attempts} + 1` })
    .where(and(eq(whatsappMedia.businessId, businessId), eq(whatsappMedia.id, id)));
}

export async function recordMediaError(db: Queryable, businessId: number, id: string, message: string) {
  await db
    .update(whatsappMedia)
    .set({ lastError: message.slice(0, 1000) })
    .where(and(eq(whatsappMedia.businessId, businessId), eq(whatsappMedia.id, id)));
}

/** Sets where the bytes are kept; false when another fetch stored them first. */
export async function markMediaStored(
  db: Queryable,
  businessId: number,
  id: string,
  values: { storageKey: string; mimeType: string; fileSize: number },
): Promise<boolean> {
  const rows = await db
    .update(whatsappMedia)
    .set({ ...values, storedAt: new Date(), lastError: null })
    .where(
      and(
        eq(whatsappMedia.businessId, businessId),
        eq(whatsappMedia.id, id),
        isNull(whatsappMedia.storageKey),
      ),
    )
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

// Customers belong to the visitor directory: the sending side reads them through its service.
export { findCustomerByExternalId, findCustomerExternalId } from '../directory';

/** Whether the business has a synced template with this row id (agents address templates by id). */
export async function templateIdExists(db: Db, businessId: number, id: number): Promise<boolean> {
  const [row] = await db
    .select({ id: whatsappTemplates.id })
    .from(whatsappTemplates)
    .where(and(eq(whatsappTemplates.businessId, businessId), eq(whatsappTemplates.id, id)))
    .limit(1);
  return row !== undefined;
}

/** A synced template by id (agent configs name templates by id). */
export async function findTemplateById(
  db: Queryable,
  businessId: number,
  id: number,
): Promise<WhatsappTemplateRow | null> {
  const [row] = await db
    .select()
    .from(whatsappTemplates)
    .where(and(eq(whatsappTemplates.businessId, businessId), eq(whatsappTemplates.id, id)))
    .limit(1);
  return row ?? null;
}

/**
 * Per customer, their WhatsApp conversation whose customer wrote last, and when (the 24-hour
 * window of agents' sends). Customers who never wrote on WhatsApp are absent.
 */
export async function lastCustomerMessagesOf(
  db: Queryable,
  businessId: number,
  customerIds: number[],
): Promise<Map<number, { conversationId: number; at: Date }>> {
  const out = new Map<number, { conversationId: number; at: Date }>();
  if (customerIds.length === 0) return out;
  const rows = await db
    .select({
      customerId: conversations.initiatorId,
      conversationId: conversations.id,
      at: max(waMessages.createdAt),
    })
    .from(conversations)
    .innerJoin(
      waMessages,
      and(eq(waMessages.conversationId, conversations.id), eq(waMessages.senderType, 'customer')),
    )
    .where(
      and(
        eq(conversations.businessId, businessId),
        eq(conversations.channel, 'whatsapp'),
        inArray(conversations.initiatorId, customerIds),
      ),
    )
    .groupBy(conversations.initiatorId, conversations.id);
  for (const r of rows) {
    if (r.customerId === null || !r.at) continue;
    const at = new Date(r.at);
    const seen = out.get(r.customerId);
    if (!seen || seen.at < at) out.set(r.customerId, { conversationId: r.conversationId, at });
  }
  return out;
}
