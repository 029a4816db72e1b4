// A local WhatsApp Cloud API (Graph API subset) for Titan's tests, the demo and browser tests:
// Graph sends, media and templates checked like Meta, signed webhooks, a customer phone page.
export {
  startWhatsappCloudSim,
  type RecordedSend,
  type SimOptions,
  type SimSwitches,
  type WhatsappCloudSim,
} from './sim';
export type { InboundSpec } from './webhooks';
export type { SimTemplate } from './templates';
export { SEED_TEMPLATES } from './templates';
export { metaJson, signatureFor } from './meta-json';
