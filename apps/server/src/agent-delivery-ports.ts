// What the agents' deliveries, read-only tools and finished event reach of other modules
// (composition-level code beside composition.ts): the agents module imports none of them.
import type { AgentDeliveryPorts } from './modules/agents';
import { findCustomerConversations } from './modules/conversations';
import {
  buildSend,
  EMAIL_ERRORS,
  enqueueEmailSends,
  sendContext,
  textOf,
  withUnsubscribeFooter,
} from './modules/email';
import { createMany, findByIdempotencyKey } from './modules/sends';
import { buildSmsSend, enqueueSmsSends, SMS_SEND_ERRORS, smsContext } from './modules/sms';
import { normalizeAddress } from './modules/suppressions';
import {
  findTemplates as findEmailTemplates,
  loadCompiledTemplate,
  renderCompiled,
} from './modules/templates';
import { recordEvent } from './modules/webhooks';
import {
  findTemplateById,
  findTemplates as findWhatsappTemplates,
  renderTemplate,
  sendMessage,
  sendTemplate,
  toTemplate,
} from './modules/whatsapp';

export const agentDeliveryPorts: AgentDeliveryPorts = {
  email: {
    sendContext,
    buildSend,
    enqueue: enqueueEmailSends,
    errors: EMAIL_ERRORS,
    findTemplates: findEmailTemplates,
    loadCompiledTemplate,
    renderCompiled,
    textOf,
    withUnsubscribeFooter,
  },
  sms: { smsContext, buildSmsSend, enqueue: enqueueSmsSends, errors: SMS_SEND_ERRORS },
  whatsapp: {
    findTemplate: findTemplateById,
    findTemplates: findWhatsappTemplates,
    toTemplate,
    renderTemplate,
    sendTemplate,
    sendMessage,
  },
  sends: { createMany, findByIdempotencyKey },
  normalizeAddress,
  findCustomerConversations,
  recordEvent,
};
