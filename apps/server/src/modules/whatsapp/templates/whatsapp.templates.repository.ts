// WhatsApp templates as synced from Meta, their logs and usage.
// Each WhatsApp sub-folder has its repository; together they are the only code writing the WhatsApp
// tables (docs/design/database.md). Conversations are written through the conversations module's face.
import { and, asc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../../db/client';
import { whatsappTemplates } from '../../../db/schema';
import { advisoryLock } from '../../../db/sql';

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
