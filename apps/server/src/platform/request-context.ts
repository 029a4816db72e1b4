// Who is calling and in which business, as the auth guard (modules/auth) left it on the request.
// Every module's routes read the caller through these helpers; the guard is the only writer.
import type { FastifyRequest } from 'fastify';
import type { TPermission, TRole } from '@titan/contracts';
import { AppError } from './errors';

export type RequestAuth =
  | { kind: 'user'; userId: number; sessionId: string }
  | {
      kind: 'api_key';
      keyId: number;
      businessId: number;
      /** The key's built-in role (null: a key made before roles, agent + sending). */
      role: TRole | null;
      customRoleId: number | null;
      customPermissions: string[] | null;
      scopeGroupIds: number[] | null;
    };

export type BusinessContext = {
  id: number;
  uniqueCode: string;
  /** The built-in role ('agent' under a custom role), or 'api_key'. */
  role: TRole | 'api_key';
  /** What the caller may do: read by every route's `config.permission` check. */
  permissions: ReadonlySet<TPermission>;
  /** The custom role held, if any, and its chat group scope (null: the whole business). */
  customRoleId: number | null;
  scopeGroupIds: number[] | null;
};

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth | null;
    business: BusinessContext | null;
  }
}

/** The refusal of a user-only route to an API key (the auth module's `AUTH_ERRORS.apiKeyNotAllowed`). */
export const API_KEY_NOT_ALLOWED = 'API keys cannot be used for this endpoint.';

/** The signed-in user's id; routes that run the guard without `public` always have one. */
export function userIdOf(request: FastifyRequest): number {
  if (request.auth?.kind !== 'user') throw new AppError('forbidden', API_KEY_NOT_ALLOWED);
  return request.auth.userId;
}

/** The business a `config.business` route runs in (resolved and checked by the guard). */
export function businessOf(request: FastifyRequest): BusinessContext {
  if (!request.business) throw new Error('route is missing config.business');
  return request.business;
}

/** The user behind the call, or null for an API key (for created_by / updated_by columns). */
export function actorIdOf(request: FastifyRequest): number | null {
  return request.auth?.kind === 'user' ? request.auth.userId : null;
}

/** The signed-in session's id, or null for an API key or a public route. */
export function sessionIdOf(request: FastifyRequest): string | null {
  return request.auth?.kind === 'user' ? request.auth.sessionId : null;
}
