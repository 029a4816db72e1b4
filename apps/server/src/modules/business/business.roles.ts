// Custom roles (issue 34): a business's own sets of the existing permissions, with an optional chat
// group scope. Members and API keys hold a built-in role by value or a custom role by id; a role is
// only granted by someone who holds every permission in it (no one widens their own rights).
// Each change writes its audit row in its own transaction.
import {
  CUSTOM_ROLE_IN_USE,
  CUSTOM_ROLE_NAME_TAKEN,
  ROLES,
  type TCustomRole,
  type TCustomRoleRequest,
  type TPermission,
  type TRole,
  type TRoleInfoOut as TRoleInfo,
  type TRoleRef,
  type ZCustomRoleRequest,
} from '@titan/contracts';
import type { z } from 'zod';
import type { Db, Queryable } from '../../db/client';
import { sqlStateOf } from '../../platform/db-errors';
import { AppError } from '../../platform/errors';
import { ROLE_INFO, ROLE_PERMISSIONS } from '../../platform/roles';
import { recordAuditIn, type AuditContext } from '../audit';
import * as repo from './business.repository';

export const ROLE_ERRORS = {
  unknownRole: 'Choose a role from the list.',
  unknownGroup: 'Choose chat groups of this business.',
  notYours: 'You cannot grant permissions you do not hold yourself.',
} as const;

type RoleInput = z.output<typeof ZCustomRoleRequest>;

export function toCustomRole(row: repo.CustomRoleRow): TCustomRole {
  return {
    id: row.id,
    name: row.name,
    permissions: row.permissions as TPermission[],
    chat_group_ids: row.chatGroupIds ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The built-in roles, then the business's own (value = id). */
export async function listRoles(db: Db, businessId: number): Promise<TRoleInfo[]> {
  const custom = await repo.listCustomRoles(db, businessId);
  return [
    ...ROLE_INFO,
    ...custom.map((row) => ({
      value: row.id,
      label: row.name,
      permissions: row.permissions as TPermission[],
      custom: true,
      chat_group_ids: row.chatGroupIds ?? null,
    })),
  ];
}

export async function findCustomRoleView(db: Db, businessId: number, id: number): Promise<TCustomRole> {
  const row = await repo.findCustomRole(db, businessId, id);
  if (!row) throw AppError.notFound();
  return toCustomRole(row);
}

/** A role granted to someone: its built-in base, custom id and permissions. */
export type RoleGrant = {
  role: TRole;
  customRoleId: number | null;
  permissions: readonly TPermission[];
  /** The role's name as people read it: "Agent", or the custom role's name. */
  label: string;
};

/** `ref` as a grant in this business; 400 on `field` for an id that is not one of its roles. */
export async function resolveRoleRef(
  db: Queryable,
  businessId: number,
  ref: TRoleRef,
  field: string,
): Promise<RoleGrant> {
  if (typeof ref === 'string' && (ROLES as readonly string[]).includes(ref)) {
    const label = ROLE_INFO.find((r) => r.value === ref)?.label ?? ref;
    return { role: ref, customRoleId: null, permissions: ROLE_PERMISSIONS[ref], label };
  }
  const row = typeof ref === 'number' ? await repo.findCustomRole(db, businessId, ref) : null;
  if (!row) throw AppError.fields({ [field]: [ROLE_ERRORS.unknownRole] });
  return {
    role: 'agent',
    customRoleId: row.id,
    permissions: row.permissions as TPermission[],
    label: row.name,
  };
}

/** 403 unless the actor holds every permission being granted. */
export function assertMayGrantRole(
  actor: { permissions: ReadonlySet<TPermission> },
  permissions: readonly TPermission[],
  field: string,
): void {
  const missing = permissions.filter((p) => !actor.permissions.has(p));
  if (missing.length)
    throw new AppError('forbidden', ROLE_ERRORS.notYours, { [field]: [ROLE_ERRORS.notYours] });
}

async function assertOwnGroups(db: Queryable, businessId: number, ids: number[] | null | undefined) {
  if (!ids || ids.length === 0) return;
  const unique = [...new Set(ids)];
  if ((await repo.countOwnChatGroups(db, businessId, unique)) !== unique.length) {
    throw new AppError('not_found', ROLE_ERRORS.unknownGroup, { chat_group_ids: [ROLE_ERRORS.unknownGroup] });
  }
}

const nameTaken = (err: unknown) =>
  sqlStateOf(err) === '23505' ? AppError.fields({ name: [CUSTOM_ROLE_NAME_TAKEN] }) : err;

const shown = (role: TCustomRole) => ({
  name: role.name,
  permissions: role.permissions,
  chat_group_ids: role.chat_group_ids,
});

export async function createCustomRole(
  db: Db,
  actor: { id: number; permissions: ReadonlySet<TPermission> },
  audit: AuditContext,
  input: RoleInput,
): Promise<TCustomRole> {
  assertMayGrantRole(actor, input.permissions, 'permissions');
  await assertOwnGroups(db, actor.id, input.chat_group_ids);
  try {
    return await db.transaction(async (tx) => {
      const role = toCustomRole(
        await repo.insertCustomRole(tx, {
          businessId: actor.id,
          name: input.name,
          permissions: input.permissions,
          chatGroupIds: input.chat_group_ids ? [...new Set(input.chat_group_ids)] : null,
        }),
      );
      await recordAuditIn(tx, audit, {
        action: 'role.created',
        objectType: 'role',
        objectId: role.id,
        before: null,
        after: shown(role),
      });
      return role;
    });
  } catch (err) {
    throw nameTaken(err);
  }
}

export async function updateCustomRole(
  db: Db,
  actor: { id: number; permissions: ReadonlySet<TPermission> },
  audit: AuditContext,
  id: number,
  input: RoleInput,
): Promise<{ role: TCustomRole; holders: number[] }> {
  assertMayGrantRole(actor, input.permissions, 'permissions');
  // Another business's role is not found, whatever the body says (checked before the body's ids).
  if (!(await repo.findCustomRole(db, actor.id, id))) throw AppError.notFound();
  await assertOwnGroups(db, actor.id, input.chat_group_ids);
  try {
    return await db.transaction(async (tx) => {
      const before = await repo.findCustomRole(tx, actor.id, id);
      if (!before) throw AppError.notFound();
      const row = await repo.updateCustomRole(tx, actor.id, id, {
        name: input.name,
        permissions: input.permissions,
        chatGroupIds: input.chat_group_ids ? [...new Set(input.chat_group_ids)] : null,
      });
      const role = toCustomRole(row!);
      await recordAuditIn(tx, audit, {
        action: 'role.updated',
        objectType: 'role',
        objectId: id,
        before: shown(toCustomRole(before)),
        after: shown(role),
      });
      return { role, holders: await repo.memberUserIdsWithRole(tx, actor.id, id) };
    });
  } catch (err) {
    throw nameTaken(err);
  }
}

export async function deleteCustomRole(
  db: Db,
  businessId: number,
  audit: AuditContext,
  id: number,
): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const before = await repo.findCustomRole(tx, businessId, id);
      if (!before || !(await repo.deleteCustomRole(tx, businessId, id))) throw AppError.notFound();
      await recordAuditIn(tx, audit, {
        action: 'role.deleted',
        objectType: 'role',
        objectId: id,
        before: shown(toCustomRole(before)),
        after: null,
      });
    });
  } catch (err) {
    // Members or keys hold it (ON DELETE RESTRICT).
    const state = sqlStateOf(err);
    if (state === '23001' || state === '23503') throw new AppError('conflict', CUSTOM_ROLE_IN_USE);
    throw err;
  }
}

export type { TCustomRoleRequest };
