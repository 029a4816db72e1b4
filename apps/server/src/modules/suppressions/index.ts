// The public face of the suppressions module: what other modules and the app's composition may use.
// Everything else in modules/suppressions/ is private to it (eslint: titan-server/module-faces).

export {
  findSuppression,
  isSuppressed,
  keepHashedSuppressions,
  normalizeAddress,
  suppress,
  suppressedAmong,
  type SuppressionReason,
  type SuppressionRow,
  suppressionsAmong,
  unsuppress,
} from './suppressions.service';
