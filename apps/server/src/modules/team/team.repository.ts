// The only code that touches invitations and join_requests.
import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { invitations, joinRequests, users } from '../../db/schema';
import type { Queryable } from '../../db/client';

export type InvitationRow = typeof invitations.$inferSelect;

const inviter = {
  pk: users.id,
  first_name: users.firstName,
  last_name: users.lastName,
  email: users.email,
};

export async function listOpenInvitations(db: Queryable, businessId: number) {
  return db
    .select({ invitation: invitations, inviter })
    .from(invitations)
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(
      and(
        eq(invitations.businessId, businessId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

/** Closes any open invitation for this address, so the new one is the only valid link. */
export async function revokeOpenInvitationsFor(db: Queryable, businessId: number, email: string) {
  await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(invitations.businessId, businessId),
        sql`lower(${invitations.email}) = ${email.toLowerCase()}`,
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    );
}

export async function insertInvitation(
  db: Queryable,
  values: typeof invitations.$inferInsert,
): Promise<InvitationRow> {
  const [row] = await db.insert(invitations).values(values).returning();
  return row!;
}

export async function revokeInvitation(db: Queryable, businessId: number, id: number): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(invitations.id, id),
        eq(invitations.businessId, businessId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .returning({ id: invitations.id });
  return rows.length === 1;
}

/** An invitation that can still be accepted. */
export async function findOpenInvitationByHash(
  db: Queryable,
  tokenHash: string,
): Promise<InvitationRow | null> {
  const [row] = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.tokenHash, tokenHash),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function markInvitationAccepted(db: Queryable, id: number): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ acceptedAt: new Date() })
    .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id });
  return rows.length === 1;
}

const requester = {
  pk: users.id,
  first_name: users.firstName,
  last_name: users.lastName,
  email: users.email,
};

export async function listPendingJoinRequests(db: Queryable, businessId: number) {
  return db
    .select({ request: joinRequests, user: requester })
    .from(joinRequests)
    .innerJoin(users, eq(users.id, joinRequests.userId))
    .where(and(eq(joinRequests.businessId, businessId), eq(joinRequests.status, 'pending')))
    .orderBy(joinRequests.createdAt, joinRequests.id);
}

export async function findPendingJoinRequest(db: Queryable, businessId: number, userId: number) {
  const [row] = await db
    .select()
    .from(joinRequests)
    .where(
      and(
        eq(joinRequests.businessId, businessId),
        eq(joinRequests.userId, userId),
        eq(joinRequests.status, 'pending'),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function insertJoinRequest(db: Queryable, businessId: number, userId: number) {
  const [row] = await db
    .insert(joinRequests)
    .values({ businessId, userId })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** Decides a pending request once; null when it is not pending in this business. */
export async function decideJoinRequest(
  db: Queryable,
  businessId: number,
  id: number,
  status: 'approved' | 'rejected',
  decidedBy: number | null,
) {
  const [row] = await db
    .update(joinRequests)
    .set({ status, decidedAt: new Date(), decidedBy })
    .where(
      and(
        eq(joinRequests.id, id),
        eq(joinRequests.businessId, businessId),
        eq(joinRequests.status, 'pending'),
      ),
    )
    .returning();
  if (!row) return null;
  const [withUser] = await db
    .select({ request: joinRequests, user: requester })
    .from(joinRequests)
    .innerJoin(users, eq(users.id, joinRequests.userId))
    .where(eq(joinRequests.id, row.id));
  return withUser!;
}
