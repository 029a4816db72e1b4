// The team of a business: members and roles, invitations by mail, join requests by code.
import type {
  TAssignRequest,
  TAssignResult,
  TInvitation,
  TInvitationInfo,
  TJoinRequest,
  TMember,
  TPresenceStatus,
  TRole,
  TRoleRef,
} from '@titan/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { randomToken, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import { findUserByEmail, findUserById, forgetMembership, invitationMail } from '../auth';
import { type BusinessContext } from '../../platform/request-context';
import { recordAuditIn, type AuditContext } from '../audit';
import * as businessRepo from '../business';
import { presenceOf } from '../presence';
import * as repo from './team.repository';

export type TeamDeps = { db: Db; mailer: Mailer; config: Pick<Config, 'PUBLIC_URL'> };

export const TEAM_ERRORS = {
  alreadyMember: 'This person is already a member of the business.',
  youAreMember: 'You are already a member of this business.',
  ownerOnly: 'Only an owner can grant or change the owner role.',
  lastOwner: 'A business needs at least one owner. Make someone else owner first.',
  badInvitation: 'This invitation is invalid, has expired or was already used.',
  otherEmail: 'This invitation was sent to another email address. Sign in with that address to accept it.',
  unknownCode: 'No business has this code.',
} as const;

const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const iso = (d: Date) => d.toISOString();

/** A member as the audit log keeps it: without presence, which is not a change anyone made. */
function memberForAudit(row: businessRepo.MemberRow): Record<string, unknown> {
  const { presence: _presence, ...member } = toMember(row, 'offline');
  return member;
}

function toMember(row: businessRepo.MemberRow, presence: TPresenceStatus): TMember {
  return {
    id: row.id,
    user: { pk: row.userId, first_name: row.firstName, last_name: row.lastName, email: row.email },
    role: row.customRoleId ?? row.role,
    joined_at: iso(row.joinedAt),
    presence,
  };
}

function toInvitation(
  row: repo.InvitationRow,
  inviter: { pk: number; first_name: string; last_name: string; email: string } | null,
): TInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.customRoleId ?? row.role,
    expires_at: iso(row.expiresAt),
    created_at: iso(row.createdAt),
    invited_by: inviter,
  };
}

function toJoinRequest(row: NonNullable<Awaited<ReturnType<typeof repo.decideJoinRequest>>>): TJoinRequest {
  return {
    id: row.request.id,
    user: row.user,
    status: row.request.status,
    created_at: iso(row.request.createdAt),
  };
}

/** Owner is granted, changed or removed only by an owner (api.md: admins never touch ownership). */
function assertMayTouchRole(actor: BusinessContext, ...roles: TRole[]): void {
  if (roles.includes('owner') && actor.role !== 'owner')
    throw new AppError('forbidden', TEAM_ERRORS.ownerOnly);
}

export async function findMembers(db: Db, businessId: number): Promise<TMember[]> {
  const rows = await businessRepo.listMembers(db, businessId);
  const presence = await presenceOf(
    db,
    rows.map((r) => r.userId),
  );
  return rows.map((row) => toMember(row, presence.get(row.userId) ?? 'offline'));
}

export async function inviteMember(
  deps: TeamDeps,
  actor: BusinessContext,
  inviterId: number | null,
  input: { email: string; role: TRoleRef },
): Promise<TInvitation> {
  // A custom role by id, or a built-in one; nobody offers more than they hold themselves.
  const grant = await businessRepo.resolveRoleRef(deps.db, actor.id, input.role, 'role');
  assertMayTouchRole(actor, grant.role);
  businessRepo.assertMayGrantRole(actor, grant.permissions, 'role');
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing && (await businessRepo.findMembership(deps.db, actor.id, existing.id))) {
    throw AppError.fields({ email: [TEAM_ERRORS.alreadyMember] });
  }
  const token = randomToken();
  const invitation = await deps.db.transaction(async (tx) => {
    await repo.revokeOpenInvitationsFor(tx, actor.id, input.email);
    return repo.insertInvitation(tx, {
      businessId: actor.id,
      email: input.email,
      role: grant.role,
      customRoleId: grant.customRoleId,
      tokenHash: sha256(token),
      invitedBy: inviterId,
      expiresAt: new Date(Date.now() + INVITATION_TTL_MS),
    });
  });
  const business = await businessRepo.findBusinessById(deps.db, actor.id);
  const inviter = inviterId ? await findUserById(deps.db, inviterId) : null;
  const inviterName = inviter
    ? `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email
    : 'A teammate';
  const url = `${deps.config.PUBLIC_URL}/invite-user/join/${token}`;
  await deps.mailer.send(invitationMail(input.email, business!.name, inviterName, grant.label, url));
  return toInvitation(
    invitation,
    inviter
      ? { pk: inviter.id, first_name: inviter.firstName, last_name: inviter.lastName, email: inviter.email }
      : null,
  );
}

export async function findInvitations(db: Db, businessId: number): Promise<TInvitation[]> {
  return (await repo.listOpenInvitations(db, businessId)).map((r) => toInvitation(r.invitation, r.inviter));
}

export async function revokeInvitation(db: Db, businessId: number, id: number): Promise<void> {
  if (!(await repo.revokeInvitation(db, businessId, id))) throw AppError.notFound();
}

export async function lookUpInvitation(db: Db, token: string): Promise<TInvitationInfo> {
  const invitation = await repo.findOpenInvitationByHash(db, sha256(token));
  if (!invitation) throw new AppError('not_found', TEAM_ERRORS.badInvitation);
  const business = await businessRepo.findBusinessById(db, invitation.businessId);
  const role = invitation.customRoleId ?? invitation.role;
  const grant = await businessRepo.resolveRoleRef(db, invitation.businessId, role, 'role');
  return {
    business: { name: business!.name, unique_code: business!.uniqueCode },
    email: invitation.email,
    role,
    role_label: grant.label,
    expires_at: iso(invitation.expiresAt),
  };
}

export async function assignToBusiness(
  db: Db,
  userId: number,
  input: TAssignRequest,
): Promise<TAssignResult> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('unauthorized', 'Your session has expired. Please log in again.');

  if ('token' in input) {
    return db.transaction(async (tx) => {
      const invitation = await repo.findOpenInvitationByHash(tx, sha256(input.token));
      if (!invitation)
        throw AppError.fields({ token: [TEAM_ERRORS.badInvitation] }, TEAM_ERRORS.badInvitation);
      if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
        throw new AppError('forbidden', TEAM_ERRORS.otherEmail);
      }
      const business = (await businessRepo.findBusinessById(tx, invitation.businessId))!;
      const summary = { id: business.id, name: business.name, unique_code: business.uniqueCode };
      const current = await businessRepo.findMembership(tx, business.id, userId);
      if (!(await repo.markInvitationAccepted(tx, invitation.id))) {
        throw AppError.fields({ token: [TEAM_ERRORS.badInvitation] }, TEAM_ERRORS.badInvitation);
      }
      if (current) return { status: 'joined', business: summary, role: current.customRoleId ?? current.role };
      await businessRepo.insertMembership(tx, {
        businessId: business.id,
        userId,
        role: invitation.role,
        customRoleId: invitation.customRoleId,
      });
      return { status: 'joined', business: summary, role: invitation.customRoleId ?? invitation.role };
    });
  }

  const business = await businessRepo.findBusinessByCode(db, input.unique_code);
  if (!business) throw AppError.fields({ unique_code: [TEAM_ERRORS.unknownCode] }, TEAM_ERRORS.unknownCode);
  const summary = { id: business.id, name: business.name, unique_code: business.uniqueCode };
  if (await businessRepo.findMembership(db, business.id, userId))
    throw new AppError('conflict', TEAM_ERRORS.youAreMember);
  if (!(await repo.findPendingJoinRequest(db, business.id, userId)))
    await repo.insertJoinRequest(db, business.id, userId);
  return { status: 'pending', business: summary, role: null };
}

export async function findJoinRequests(db: Db, businessId: number): Promise<TJoinRequest[]> {
  return (await repo.listPendingJoinRequests(db, businessId)).map(toJoinRequest);
}

export async function decideJoinRequest(
  db: Db,
  actor: BusinessContext,
  actorId: number | null,
  id: number,
  decision: { approve: boolean; role: TRoleRef },
): Promise<TJoinRequest> {
  return db.transaction(async (tx) => {
    const decided = await repo.decideJoinRequest(
      tx,
      actor.id,
      id,
      decision.approve ? 'approved' : 'rejected',
      actorId,
    );
    // Another business's request is 404 before the role is looked at; a refused role rolls back.
    if (!decided) throw AppError.notFound();
    const grant = decision.approve
      ? await businessRepo.resolveRoleRef(tx, actor.id, decision.role, 'role')
      : null;
    if (grant) {
      assertMayTouchRole(actor, grant.role);
      businessRepo.assertMayGrantRole(actor, grant.permissions, 'role');
      await businessRepo.insertMembership(tx, {
        businessId: actor.id,
        userId: decided.user.pk,
        role: grant.role,
        customRoleId: grant.customRoleId,
      });
    }
    return toJoinRequest(decided);
  });
}

/**
 * A member's new role: a built-in one by value or a custom role by id. The actor must hold every
 * permission of a custom role they grant (no one hands out more than they have); the audit row is
 * written in the same transaction.
 */
export async function changeMemberRole(
  db: Db,
  actor: BusinessContext,
  audit: AuditContext,
  membershipId: number,
  ref: TRoleRef,
): Promise<TMember> {
  const changed = await db.transaction(async (tx) => {
    const member = await businessRepo.findMember(tx, actor.id, membershipId);
    if (!member) throw AppError.notFound();
    const grant = await businessRepo.resolveRoleRef(tx, actor.id, ref, 'role');
    const role = grant.role;
    assertMayTouchRole(actor, member.role, role);
    businessRepo.assertMayGrantRole(actor, grant.permissions, 'role');
    if (
      member.role === 'owner' &&
      role !== 'owner' &&
      (await businessRepo.countOwnersForUpdate(tx, actor.id)) <= 1
    ) {
      throw new AppError('conflict', TEAM_ERRORS.lastOwner);
    }
    await businessRepo.setMemberRole(tx, actor.id, membershipId, role, grant.customRoleId);
    const after = { ...member, role, customRoleId: grant.customRoleId };
    await recordAuditIn(tx, audit, {
      action: 'member.updated',
      objectType: 'member',
      objectId: membershipId,
      before: { role: member.customRoleId ?? member.role },
      after: { role: after.customRoleId ?? after.role },
    });
    return after;
  });
  forgetMembership(db, actor.id, changed.userId);
  const presence = await presenceOf(db, [changed.userId]);
  return toMember(changed, presence.get(changed.userId) ?? 'offline');
}

export async function removeMember(
  db: Db,
  actor: BusinessContext,
  audit: AuditContext,
  membershipId: number,
): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const member = await businessRepo.findMember(tx, actor.id, membershipId);
    if (!member) throw AppError.notFound();
    assertMayTouchRole(actor, member.role);
    if (member.role === 'owner' && (await businessRepo.countOwnersForUpdate(tx, actor.id)) <= 1) {
      throw new AppError('conflict', TEAM_ERRORS.lastOwner);
    }
    await businessRepo.deleteMember(tx, actor.id, membershipId);
    await recordAuditIn(tx, audit, {
      action: 'member.deleted',
      objectType: 'member',
      objectId: membershipId,
      before: memberForAudit(member),
      after: null,
    });
    return member;
  });
  forgetMembership(db, actor.id, removed.userId);
}
