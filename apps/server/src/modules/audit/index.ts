// The audit module's face: record a change (inside its transaction), the routes, the request hook
// and the retention purge.
export {
  recordAudit,
  recordAuditIn,
  auditContextOf,
  type AuditContext,
  maskValue,
  diffChanges,
  purgeAuditLog,
  type AuditActor,
  type AuditInput,
} from './audit.service';
export { auditRoutes } from './audit.routes';
export { scrubObjectChanges } from './audit.repository';
export { registerAuditHook, auditPlan } from './audit.hook';
