// The audit log: who changed what in a business, when and from where. `recordAudit` appends one row
// (call it inside the change's transaction when there is one); the list, the CSV and the purge.
import { AUDIT_MASK, type TAuditEntry, type TAuditQuery } from '@titan/contracts';
import { csvLine } from '../../platform/csv';
import type { Queryable } from '../../db/client';
import * as repo from './audit.repository';

export type AuditActor = { type: 'member' | 'api_key'; id: number | null };

export type AuditInput = {
  businessId: number;
  actor: AuditActor;
  /** `<object_type>.<verb>`: `template.updated`, `api_key.created`, `email_domain.verify`. */
  action: string;
  objectType: string;
  objectId?: string | number | null | undefined;
  /** The object before the change (null: created) and after (null: deleted), as the API shows it. */
  before?: unknown;
  after?: unknown;
  /** Limit the changes to these fields (those the request set); all fields when absent. */
  fields?: readonly string[] | undefined;
  ip?: string | null | undefined;
  userAgent?: string | null | undefined;
};

/** Field names whose values are secrets: the row shows AUDIT_MASK in their place. */
const SECRET_FIELD =
  /(secret|password|passwd|token|api_?key|^key$|_key$|private|credential|auth_?token|signature|^otp|recovery)/i;
const STRING_MAX = 500;
const VALUE_JSON_MAX = 4000;

/** A value as the row keeps it: secrets masked at any depth, long text cut short. */
export function maskValue(value: unknown, key = ''): unknown {
  if (value === null || value === undefined) return null;
  if (key && SECRET_FIELD.test(key) && value !== '' && typeof value !== 'boolean') return AUDIT_MASK;
  if (typeof value === 'string') {
    return value.length > STRING_MAX ? `${value.slice(0, STRING_MAX)}… (${value.length} characters)` : value;
  }
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => maskValue(v));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = maskValue(v, k);
    const json = JSON.stringify(out);
    return json.length > VALUE_JSON_MAX ? `(${json.length} characters)` : out;
  }
  return value;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{field: {before, after}}` for the fields that differ, masked. */
export function diffChanges(
  before: unknown,
  after: unknown,
  fields?: readonly string[],
): Record<string, { before: unknown; after: unknown }> {
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const names = fields ?? [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const name of names) {
    const was = name in b ? b[name] : null;
    const now = name in a ? a[name] : null;
    if (JSON.stringify(was ?? null) === JSON.stringify(now ?? null)) continue;
    out[name] = { before: maskValue(was, name), after: maskValue(now, name) };
  }
  return out;
}

/** Appends one audit row (in `db`'s transaction when it is one). */
export async function recordAudit(db: Queryable, input: AuditInput): Promise<void> {
  await repo.insertAudit(db, {
    businessId: input.businessId,
    actorType: input.actor.type,
    actorId: input.actor.id,
    action: input.action,
    objectType: input.objectType,
    objectId: input.objectId === null || input.objectId === undefined ? null : String(input.objectId),
    changes: diffChanges(input.before, input.after, input.fields),
    ip: input.ip ?? null,
    userAgent: input.userAgent?.slice(0, 500) ?? null,
  });
}

function filterOf(query: Partial<TAuditQuery>): repo.AuditFilter {
  let actorType: repo.AuditFilter['actorType'];
  let actorId: number | undefined;
  if (query.actor) {
    const m = /^(?:(member|api_key):)?(\d{1,15})$/.exec(query.actor);
    if (m) {
      actorType = m[1] as repo.AuditFilter['actorType'];
      actorId = Number(m[2]);
    } else {
      actorId = -1; // matches nothing
    }
  }
  const day = (v: string, end: boolean) =>
    new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T${end ? '23:59:59.999' : '00:00:00'}Z` : v);
  return {
    actorType,
    actorId,
    action: query.action || undefined,
    objectType: query.object_type || undefined,
    from: query.created_at__gte ? day(query.created_at__gte, false) : undefined,
    to: query.created_at__lte ? day(query.created_at__lte, true) : undefined,
  };
}

export function toEntry(row: repo.AuditRow): TAuditEntry {
  return {
    id: row.id,
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    action: row.action,
    object_type: row.objectType,
    object_id: row.objectId,
    changes: row.changes,
    ip: row.ip,
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
  };
}

export async function listAuditLog(db: Queryable, businessId: number, query: TAuditQuery) {
  const { rows, count } = await repo.listAudit(
    db,
    businessId,
    filterOf(query),
    query.page_size,
    (query.page - 1) * query.page_size,
  );
  return {
    count,
    next: query.page * query.page_size < count ? query.page + 1 : null,
    previous: query.page > 1 ? query.page - 1 : null,
    results: rows.map(toEntry),
  };
}

const CSV_HEADER = [
  'id',
  'created_at',
  'actor_type',
  'actor_id',
  'actor_name',
  'action',
  'object_type',
  'object_id',
  'changes',
  'ip',
  'user_agent',
];

export async function* exportAuditLog(
  db: Queryable,
  businessId: number,
  query: Partial<TAuditQuery>,
): AsyncGenerator<string> {
  yield csvLine(CSV_HEADER);
  for await (const batch of repo.streamAudit(db, businessId, filterOf(query))) {
    let out = '';
    for (const r of batch) {
      out += csvLine([
        r.id,
        r.createdAt.toISOString(),
        r.actorType,
        r.actorId,
        r.actorName,
        r.action,
        r.objectType,
        r.objectId,
        JSON.stringify(r.changes),
        r.ip,
        r.userAgent,
      ]);
    }
    yield out;
  }
}

/** Removes rows older than the retention (AUDIT_LOG_RETENTION_DAYS); 0 keeps them for ever. */
export async function purgeAuditLog(db: Queryable, retentionDays: number, now = Date.now()): Promise<number> {
  if (retentionDays <= 0) return 0;
  return repo.purgeAuditBefore(db, new Date(now - retentionDays * 24 * 60 * 60 * 1000));
}

/** Who made a change and from where: what a service needs to write its audit row in its transaction. */
export type AuditContext = {
  businessId: number;
  actor: AuditActor;
  ip: string | null;
  userAgent: string | null;
};

/** The audit context of a business-scoped request (its route then sets `config.audit: false`). */
export function auditContextOf(request: {
  business: { id: number } | null;
  auth: { kind: 'user'; userId: number } | { kind: 'api_key'; keyId: number } | null;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}): AuditContext {
  if (!request.business || !request.auth) throw new Error('audit context needs a business-scoped request');
  const ua = request.headers['user-agent'];
  return {
    businessId: request.business.id,
    actor:
      request.auth.kind === 'user'
        ? { type: 'member', id: request.auth.userId }
        : { type: 'api_key', id: request.auth.keyId },
    ip: request.ip,
    userAgent: typeof ua === 'string' ? ua : null,
  };
}

/** Appends the row of one change made under `context`, in `tx` (the change's own transaction). */
export async function recordAuditIn(
  tx: Queryable,
  context: AuditContext,
  change: Omit<AuditInput, 'businessId' | 'actor' | 'ip' | 'userAgent'>,
): Promise<void> {
  await recordAudit(tx, { ...context, ...change });
}
