// The webhooks module's face: `recordEvent` (the outbox, called inside the transaction of a
// change), the routes, the delivery loop and its deps.
export { deleteEventsNaming } from './webhooks.repository';
export {
  listeningBusinesses,
  recordEvent,
  recordEventsOfType,
  WEBHOOK_DEFAULTS,
  type WebhookDeps,
  type WebhookEvent,
} from './webhooks.service';
export { runDeliveryPass, pruneWebhookEvents, WEBHOOK_DELIVERY_LOOP } from './webhooks.delivery';
export { webhookRoutes } from './webhooks.routes';
