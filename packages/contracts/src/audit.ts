// The audit log (next-api.md "Platform").
import { z } from 'zod';
import { ZPageQuery } from './conversations';
import { ZPage } from './envelope';

export const AUDIT_ACTOR_TYPES = ['member', 'api_key'] as const;

export const ZAuditActor = z.object({
  type: z.enum(AUDIT_ACTOR_TYPES),
  id: z.number().int().nullable(),
  name: z.string(),
});
export const ZAuditEntry = z.object({
  id: z.number().int(),
  actor: ZAuditActor,
  action: z.string(),
  object_type: z.string(),
  object_id: z.string().nullable(),
  changes: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  created_at: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;
export const ZAuditPage = ZPage(ZAuditEntry);

const when = z.iso.datetime({ offset: true }).or(z.iso.date());
export const ZAuditFilter = z.strictObject({
  /** `member:<id>`, `api_key:<id>`, or a bare id of either. */
  actor: z.string().trim().max(60).optional(),
  action: z.string().trim().max(100).optional(),
  object_type: z.string().trim().max(60).optional(),
  created_at__gte: when.optional(),
  created_at__lte: when.optional(),
});
export type TAuditFilter = z.infer<typeof ZAuditFilter>;
export const ZAuditQuery = ZAuditFilter.extend(ZPageQuery.shape).strict();
export type TAuditQuery = z.infer<typeof ZAuditQuery>;

/** The value an audit row shows in place of a secret. */
export const AUDIT_MASK = '••••••';
