// The public face of the whatsapp module: what other modules and the app's composition may use.
// Everything else in modules/whatsapp/ is private to it (eslint: titan-server/module-faces).

export { whatsappAccountRoutes } from './account/whatsapp.account.routes';
export { whatsappMediaRoutes } from './media/whatsapp.media.routes';
export type { WhatsappDeps } from './messages/whatsapp.outbound';
export { whatsappSendRoutes } from './messages/whatsapp.send.routes';
export { requestMarkRead, sendMessage, WINDOW_MS } from './messages/whatsapp.send';
export { whatsappTemplatesRoutes } from './templates/whatsapp.templates.routes';
export {
  findTemplateById,
  findTemplates,
  lastCustomerMessagesOf,
  renderTemplate,
  sendTemplate,
  toTemplate,
  whatsappTemplateExists,
} from './templates/whatsapp.templates';
export {
  assertWhatsappConnected,
  checkCampaignTemplate,
  testSendCampaignTemplate,
  whatsappBroadcastChannel,
} from './templates/whatsapp.broadcast';
export {
  dispatchWhatsappSends,
  journeyTemplateProblems,
  type JourneyTemplate,
  type JourneyTemplateSend,
  recordJourneyTemplateSend,
} from './templates/whatsapp.journey';
export { whatsappWebhookRoutes } from './webhook/whatsapp.webhook.routes';
export { createWhatsappDeps, defineWhatsappQueues } from './whatsapp.queues';
