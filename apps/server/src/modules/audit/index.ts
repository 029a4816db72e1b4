// The audit module's face: record a change (inside its transaction), the routes, the request hook
// and the retention purge.
export {
  recordAudit,
  maskValue,
  diffChanges,
  purgeAuditLog,
  type AuditActor,
  type AuditInput,
} from './audit.service';
export { auditRoutes } from './audit.routes';
export { registerAuditHook, auditPlan } from './audit.hook';
