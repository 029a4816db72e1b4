// The only code that touches email_templates and email_template_versions.
import { and, desc, eq } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client';
import { emailTemplates, emailTemplateVersions } from '../../db/schema';
import { sqlStateOf } from '../../platform/db-errors';

export type TemplateRow = typeof emailTemplates.$inferSelect;
export type TemplateVersionRow = typeof emailTemplateVersions.$inferSelect;

/** What a save writes: the source, what compiling it gave, and who saved it. */
export type VersionValues = {
  name: string;
  subject: string;
  preheader: string;
  format: TemplateRow['format'];
  content: string;
  textContent: string | null;
  variables: string[];
  compiledHtml: string;
  compiledText: string | null;
  createdBy: number | null;
};

export class NameTakenError extends Error {}

const isNameTaken = (err: unknown) => sqlStateOf(err) === '23505';

export async function listTemplates(db: Db, businessId: number): Promise<TemplateRow[]> {
  return db
    .select()
    .from(emailTemplates)
    .where(eq(emailTemplates.businessId, businessId))
    .orderBy(desc(emailTemplates.updatedAt), desc(emailTemplates.id));
}

export async function findTemplate(
  db: Queryable,
  businessId: number,
  id: number,
  forUpdate = false,
): Promise<TemplateRow | null> {
  const query = db
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.businessId, businessId), eq(emailTemplates.id, id)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

function versionRow(templateId: number, businessId: number, version: number, v: VersionValues) {
  return { templateId, businessId, version, ...v };
}

/** A new template and its version 1, in one transaction. */
export async function insertTemplate(db: Db, businessId: number, v: VersionValues): Promise<TemplateRow> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(emailTemplates)
        .values({
          businessId,
          name: v.name,
          subject: v.subject,
          preheader: v.preheader,
          format: v.format,
          content: v.content,
          textContent: v.textContent,
          variables: v.variables,
          version: 1,
          createdBy: v.createdBy,
        })
        .returning();
      await tx.insert(emailTemplateVersions).values(versionRow(row!.id, businessId, 1, v));
      return row!;
    });
  } catch (err) {
    if (isNameTaken(err)) throw new NameTakenError();
    throw err;
  }
}

/**
 * Saves a new version of a template: run inside `tx` after `findTemplate(..., forUpdate)`, so two
 * saves never take the same version number.
 */
export async function insertVersion(
  tx: Queryable,
  current: TemplateRow,
  v: VersionValues,
): Promise<TemplateRow> {
  const version = current.version + 1;
  await tx.insert(emailTemplateVersions).values(versionRow(current.id, current.businessId, version, v));
  const [row] = await tx
    .update(emailTemplates)
    .set({
      name: v.name,
      subject: v.subject,
      preheader: v.preheader,
      format: v.format,
      content: v.content,
      textContent: v.textContent,
      variables: v.variables,
      version,
      updatedAt: new Date(),
    })
    .where(and(eq(emailTemplates.businessId, current.businessId), eq(emailTemplates.id, current.id)))
    .returning();
  return row!;
}

/** A rename alone: the source did not change, so no version is written. */
export async function renameTemplate(
  tx: Queryable,
  current: TemplateRow,
  name: string,
): Promise<TemplateRow> {
  const [row] = await tx
    .update(emailTemplates)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(emailTemplates.businessId, current.businessId), eq(emailTemplates.id, current.id)))
    .returning();
  return row!;
}

export async function inTransaction<T>(db: Db, work: (tx: Queryable) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (err) {
    if (isNameTaken(err)) throw new NameTakenError();
    throw err;
  }
}

export async function deleteTemplate(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(emailTemplates)
    .where(and(eq(emailTemplates.businessId, businessId), eq(emailTemplates.id, id)))
    .returning({ id: emailTemplates.id });
  return rows.length > 0;
}

/** Newest first, at most `limit`. */
export async function listVersions(
  db: Db,
  businessId: number,
  templateId: number,
  limit: number,
): Promise<TemplateVersionRow[]> {
  return db
    .select()
    .from(emailTemplateVersions)
    .where(
      and(eq(emailTemplateVersions.businessId, businessId), eq(emailTemplateVersions.templateId, templateId)),
    )
    .orderBy(desc(emailTemplateVersions.version))
    .limit(limit);
}

export async function findVersion(
  db: Queryable,
  businessId: number,
  templateId: number,
  version: number,
): Promise<TemplateVersionRow | null> {
  const [row] = await db
    .select()
    .from(emailTemplateVersions)
    .where(
      and(
        eq(emailTemplateVersions.businessId, businessId),
        eq(emailTemplateVersions.templateId, templateId),
        eq(emailTemplateVersions.version, version),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The current version of a template of the business: one indexed lookup, for sends. */
export async function findCurrentVersion(
  db: Queryable,
  businessId: number,
  templateId: number,
): Promise<TemplateVersionRow | null> {
  const [row] = await db
    .select({ v: emailTemplateVersions })
    .from(emailTemplates)
    .innerJoin(
      emailTemplateVersions,
      and(
        eq(emailTemplateVersions.templateId, emailTemplates.id),
        eq(emailTemplateVersions.version, emailTemplates.version),
      ),
    )
    .where(and(eq(emailTemplates.businessId, businessId), eq(emailTemplates.id, templateId)))
    .limit(1);
  return row?.v ?? null;
}
