// The team of a business: members and roles, invitations by mail, join requests by code.
import type {
  TAssignRequest,
  TAssignResult,
  TInvitation,
  TInvitationInfo,
  TJoinRequest,
  TMember,
  TRole,
} from '@titan/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { randomToken, sha256 } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Mailer } from '../../platform/mailer';
import {
  type BusinessContext,
  findUserByEmail,
  findUserById,
  forgetMembership,
  invitationMail,
} from '../auth';
import * as businessRepo from '../business';
import * as repo from './team.repository';

export type TeamDeps = { db: Db; mailer: Mailer; config: Pick<Config, 'PUBLIC_URL'> };

export const TEAM_MESSAGES = {
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

function toMember(row: businessRepo.MemberRow): TMember {
  return {
    id: row.id,
    user: { pk: row.userId, first_name: row.firstName, last_name: row.lastName, email: row.email },
    role: row.role,
    joined_at: iso(row.joinedAt),
  };
}

function toInvitation(
  row: repo.InvitationRow,
  inviter: { pk: number; first_name: string; last_name: string; email: string } | null,
): TInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
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
    throw new AppError('forbidden', TEAM_MESSAGES.ownerOnly);
}

export async function findMembers(db: Db, businessId: number): Promise<TMember[]> {
  return (await businessRepo.listMembers(db, businessId)).map(toMember);
}

export async function inviteMember(
  deps: TeamDeps,
  actor: BusinessContext,
  inviterId: number | null,
  input: { email: string; role: TRole },
): Promise<TInvitation> {
  assertMayTouchRole(actor, input.role);
  const existing = await findUserByEmail(deps.db, input.email);
  if (existing && (await businessRepo.findMembership(deps.db, actor.id, existing.id))) {
    throw AppError.fields({ email: [TEAM_MESSAGES.alreadyMember] });
  }
  const token = randomToken();
  const invitation = await deps.db.transaction(async (tx) => {
    await repo.revokeOpenInvitationsFor(tx, actor.id, input.email);
    return repo.insertInvitation(tx, {
      businessId: actor.id,
      email: input.email,
      role: input.role,
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
  await deps.mailer.send(invitationMail(input.email, business!.name, inviterName, input.role, url));
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
  if (!invitation) throw new AppError('not_found', TEAM_MESSAGES.badInvitation);
  const business = await businessRepo.findBusinessById(db, invitation.businessId);
  return {
    business: { name: business!.name, unique_code: business!.uniqueCode },
    email: invitation.email,
    role: invitation.role,
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
        throw AppError.fields({ token: [TEAM_MESSAGES.badInvitation] }, TEAM_MESSAGES.badInvitation);
      if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
        throw new AppError('forbidden', TEAM_MESSAGES.otherEmail);
      }
      const business = (await businessRepo.findBusinessById(tx, invitation.businessId))!;
      const summary = { id: business.id, name: business.name, unique_code: business.uniqueCode };
      const current = await businessRepo.findMembership(tx, business.id, userId);
      if (!(await repo.markInvitationAccepted(tx, invitation.id))) {
        throw AppError.fields({ token: [TEAM_MESSAGES.badInvitation] }, TEAM_MESSAGES.badInvitation);
      }
      if (current) return { status: 'joined', business: summary, role: current.role };
      await businessRepo.insertMembership(tx, { businessId: business.id, userId, role: invitation.role });
      return { status: 'joined', business: summary, role: invitation.role };
    });
  }

  const business = await businessRepo.findBusinessByCode(db, input.unique_code);
  if (!business)
    throw AppError.fields({ unique_code: [TEAM_MESSAGES.unknownCode] }, TEAM_MESSAGES.unknownCode);
  const summary = { id: business.id, name: business.name, unique_code: business.uniqueCode };
  if (await businessRepo.findMembership(db, business.id, userId))
    throw new AppError('conflict', TEAM_MESSAGES.youAreMember);
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
  decision: { approve: boolean; role: TRole },
): Promise<TJoinRequest> {
  if (decision.approve) assertMayTouchRole(actor, decision.role);
  return db.transaction(async (tx) => {
    const decided = await repo.decideJoinRequest(
      tx,
      actor.id,
      id,
      decision.approve ? 'approved' : 'rejected',
      actorId,
    );
    if (!decided) throw AppError.notFound();
    if (decision.approve) {
      await businessRepo.insertMembership(tx, {
        businessId: actor.id,
        userId: decided.user.pk,
        role: decision.role,
      });
    }
    return toJoinRequest(decided);
  });
}

export async function changeMemberRole(
  db: Db,
  actor: BusinessContext,
  membershipId: number,
  role: TRole,
): Promise<TMember> {
  const changed = await db.transaction(async (tx) => {
    const member = await businessRepo.findMember(tx, actor.id, membershipId);
    if (!member) throw AppError.notFound();
    assertMayTouchRole(actor, member.role, role);
    if (
      member.role === 'owner' &&
      role !== 'owner' &&
      (await businessRepo.countOwnersForUpdate(tx, actor.id)) <= 1
    ) {
      throw new AppError('conflict', TEAM_MESSAGES.lastOwner);
    }
    await businessRepo.setMemberRole(tx, actor.id, membershipId, role);
    return { ...member, role };
  });
  forgetMembership(db, actor.id, changed.userId);
  return toMember(changed);
}

export async function removeMember(db: Db, actor: BusinessContext, membershipId: number): Promise<void> {
  const removed = await db.transaction(async (tx) => {
    const member = await businessRepo.findMember(tx, actor.id, membershipId);
    if (!member) throw AppError.notFound();
    assertMayTouchRole(actor, member.role);
    if (member.role === 'owner' && (await businessRepo.countOwnersForUpdate(tx, actor.id)) <= 1) {
      throw new AppError('conflict', TEAM_MESSAGES.lastOwner);
    }
    await businessRepo.deleteMember(tx, actor.id, membershipId);
    return member;
  });
  forgetMembership(db, actor.id, removed.userId);
}
