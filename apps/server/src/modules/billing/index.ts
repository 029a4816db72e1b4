// The public face of the billing module: what other modules and the app's composition may use.
// Everything else in modules/billing/ is private to it (eslint: titan-server/module-faces).

export type { BillingBusinessPort, BillingDeps } from './billing.chargebee';
export { billingRoutes } from './billing.routes';
export {
  assertRoomFor,
  countAccepted,
  periodCounts,
  recordBillingSwitch,
  refusalOf,
  releaseSends,
  reserveSends,
} from './billing.service';
