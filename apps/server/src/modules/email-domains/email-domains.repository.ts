// The only code that touches email_domains and email_domain_keys.
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailDomainKeys, emailDomains, type StoredRecordCheck } from '../../db/schema';
import { sqlStateOf } from '../../platform/db-errors';

export type { StoredRecordCheck };
export type EmailDomainRow = typeof emailDomains.$inferSelect;
export type EmailDomainKeyRow = typeof emailDomainKeys.$inferSelect;
export type DomainWithKeys = EmailDomainRow & { keys: EmailDomainKeyRow[] };

const UNIQUE_VIOLATION = '23505';

async function keysOf(db: Db, domainIds: number[]): Promise<Map<number, EmailDomainKeyRow[]>> {
  const byDomain = new Map<number, EmailDomainKeyRow[]>();
  if (domainIds.length === 0) return byDomain;
  const rows = await db
    .select()
    .from(emailDomainKeys)
    .where(inArray(emailDomainKeys.domainId, domainIds))
    .orderBy(asc(emailDomainKeys.createdAt), asc(emailDomainKeys.id));
  for (const row of rows) byDomain.set(row.domainId, [...(byDomain.get(row.domainId) ?? []), row]);
  return byDomain;
}

async function withKeys(db: Db, rows: EmailDomainRow[]): Promise<DomainWithKeys[]> {
  const keys = await keysOf(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, keys: keys.get(r.id) ?? [] }));
}

/** The new domain with its first (active) key, or null when the business already holds the name. */
export async function insertDomain(
  db: Db,
  domain: typeof emailDomains.$inferInsert,
  key: Omit<typeof emailDomainKeys.$inferInsert, 'domainId'>,
): Promise<DomainWithKeys | null> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.insert(emailDomains).values(domain).returning();
      const [keyRow] = await tx
        .insert(emailDomainKeys)
        .values({ ...key, domainId: row!.id })
        .returning();
      return { ...row!, keys: [keyRow!] };
    });
  } catch (err) {
    if (sqlStateOf(err) === UNIQUE_VIOLATION) return null;
    throw err;
  }
}

export async function listDomains(db: Db, businessId: number): Promise<DomainWithKeys[]> {
  const rows = await db
    .select()
    .from(emailDomains)
    .where(eq(emailDomains.businessId, businessId))
    .orderBy(desc(emailDomains.createdAt), desc(emailDomains.id));
  return withKeys(db, rows);
}

export async function findDomain(db: Db, businessId: number, id: number): Promise<DomainWithKeys | null> {
  const rows = await db
    .select()
    .from(emailDomains)
    .where(and(eq(emailDomains.id, id), eq(emailDomains.businessId, businessId)))
    .limit(1);
  return (await withKeys(db, rows))[0] ?? null;
}

export async function findDomainByName(
  db: Db,
  businessId: number,
  domain: string,
): Promise<DomainWithKeys | null> {
  const rows = await db
    .select()
    .from(emailDomains)
    .where(and(eq(emailDomains.businessId, businessId), eq(emailDomains.domain, domain)))
    .limit(1);
  return (await withKeys(db, rows))[0] ?? null;
}

export async function deleteDomain(db: Db, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(emailDomains)
    .where(and(eq(emailDomains.id, id), eq(emailDomains.businessId, businessId)))
    .returning({ id: emailDomains.id });
  return rows.length === 1;
}

/** DKIM selectors any business already uses at this name: two keys must never share a DNS name. */
export async function selectorsAt(db: Db, domain: string): Promise<string[]> {
  const rows = await db
    .select({ selector: emailDomainKeys.selector })
    .from(emailDomainKeys)
    .innerJoin(emailDomains, eq(emailDomains.id, emailDomainKeys.domainId))
    .where(eq(emailDomains.domain, domain));
  return rows.map((r) => r.selector);
}

export async function saveCheck(
  db: Db,
  id: number,
  values: {
    status: EmailDomainRow['status'];
    checks: StoredRecordCheck[];
    lastCheckedAt: Date;
    verifiedAt: Date | null;
  },
): Promise<EmailDomainRow | null> {
  const [row] = await db
    .update(emailDomains)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(emailDomains.id, id))
    .returning();
  return row ?? null;
}

/** Verified domains not checked since `before`, oldest check first. */
export async function domainsToRecheck(db: Db, before: Date, limit: number): Promise<DomainWithKeys[]> {
  const rows = await db
    .select()
    .from(emailDomains)
    .where(
      and(
        eq(emailDomains.status, 'verified'),
        or(isNull(emailDomains.lastCheckedAt), lt(emailDomains.lastCheckedAt, before)),
      ),
    )
    .orderBy(asc(emailDomains.lastCheckedAt), asc(emailDomains.id))
    .limit(limit);
  return withKeys(db, rows);
}

/** Adds the domain's next key (published before the switch); null when it already has one. */
export async function insertNextKey(
  db: Db,
  key: Omit<typeof emailDomainKeys.$inferInsert, 'status'>,
): Promise<EmailDomainKeyRow | null> {
  try {
    const [row] = await db
      .insert(emailDomainKeys)
      .values({ ...key, status: 'next' })
      .returning();
    return row ?? null;
  } catch (err) {
    if (sqlStateOf(err) === UNIQUE_VIOLATION) return null;
    throw err;
  }
}

/** The switch: the active key retires and the next one signs from now on, in one transaction. */
export async function activateNextKey(db: Db, domainId: number, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [next] = await tx
      .select({ id: emailDomainKeys.id })
      .from(emailDomainKeys)
      .where(and(eq(emailDomainKeys.domainId, domainId), eq(emailDomainKeys.status, 'next')))
      .for('update');
    if (!next) return false;
    await tx
      .update(emailDomainKeys)
      .set({ status: 'retired', retiredAt: now })
      .where(and(eq(emailDomainKeys.domainId, domainId), eq(emailDomainKeys.status, 'active')));
    await tx
      .update(emailDomainKeys)
      .set({ status: 'active', activatedAt: now })
      .where(eq(emailDomainKeys.id, next.id));
    return true;
  });
}

export async function setDefaultFrom(
  db: Db,
  businessId: number,
  id: number,
  defaultFrom: string | null,
): Promise<boolean> {
  const rows = await db
    .update(emailDomains)
    .set({ defaultFrom })
    .where(and(eq(emailDomains.id, id), eq(emailDomains.businessId, businessId)))
    .returning({ id: emailDomains.id });
  return rows.length === 1;
}

/** The default sender of the business's first verified domain that has one. */
export async function findDefaultFrom(db: Db, businessId: number): Promise<string | null> {
  const [row] = await db
    .select({ defaultFrom: emailDomains.defaultFrom })
    .from(emailDomains)
    .where(
      and(
        eq(emailDomains.businessId, businessId),
        eq(emailDomains.status, 'verified'),
        isNotNull(emailDomains.defaultFrom),
      ),
    )
    .orderBy(asc(emailDomains.id))
    .limit(1);
  return row?.defaultFrom ?? null;
}
