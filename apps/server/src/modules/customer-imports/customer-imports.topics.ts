// The `imports` realtime topic (engage.md §3): a business's CSV imports as they run — each
// committed batch and the end — pushed to its staff (whoever may read imports: engage.read), the
// import in the shape GET …/imports/{id}/ answers. Visitors are never let in.
import type { TCustomerImport } from '@titan/contracts';
import type { Db } from '../../db/client';
import { defineTopic, type AnyTopic } from '../../platform/realtime/realtime.topic';
import { type AuthCache, membershipPermissions, resolveSession } from '../auth';
import { IMPORTS_TABLE, loadImport } from './customer-imports.service';

type ImportsScope = { businessId: number; shape: 'staff'; importId: string | null };

export function importTopics(deps: { db: Db; authCache: AuthCache }): AnyTopic[] {
  const imports = defineTopic<ImportsScope, TCustomerImport & { business_id: number }>({
    name: 'imports',
    async authorize(caller, request) {
      if (request.topic !== 'imports' || caller.kind !== 'staff') return 'denied';
      const found = await resolveSession(
        deps.db,
        deps.authCache,
        caller.sessionId,
        caller.userId,
        request.business_code,
        true,
      );
      if (!found) return 'revoked';
      const membership = found.membership;
      if (!membership || !membershipPermissions(membership).has('engage.read')) return 'denied';
      const importId = request.import_id ?? null;
      // One import: it must be this business's.
      if (importId !== null && (await loadImport(deps.db, importId))?.business_id !== membership.businessId)
        return 'denied';
      return { businessId: membership.businessId, shape: 'staff', importId };
    },
    wants: (scope, change) =>
      change.table === IMPORTS_TABLE && (scope.importId === null || change.id === scope.importId),
    load: (change) => loadImport(deps.db, change.id!),
    serialize: ({ business_id: _business, ...row }) => JSON.stringify(row),
    match: (scope, row) => row.business_id === scope.businessId && {},
    old: () => null,
  });
  return [imports];
}
