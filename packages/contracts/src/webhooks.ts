// Outbound webhooks (next-api.md "Platform"; issue 34): a business's endpoints, the event catalogue
// they subscribe to, the body every delivery carries and the delivery log. Deliveries are signed
// per Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp`,
// `webhook-signature: v1,<base64 HMAC-SHA256>` with a `whsec_<base64>` secret. Journeys reuse the
// catalogue for their event triggers.
import { z } from 'zod';
import { ZPageQuery } from './conversations';
import { ZPage } from './envelope';

/** Every event Titan emits today, in the order the settings screen lists them. */
export const WEBHOOK_EVENT_TYPES = [
  'conversation.created',
  'conversation.updated',
  'conversation.resolved',
  'message.created',
  'send.status_changed',
  'customer.created',
  'customer.updated',
  'customer.erased',
  'consent.changed',
  'form.submitted',
  'agent_run.finished',
  'campaign.started',
  'campaign.finished',
  'journey.entered',
  'journey.step_completed',
  'journey.exited',
] as const;
export const WEBHOOK_ALL_EVENT_TYPES = WEBHOOK_EVENT_TYPES;
export const ZWebhookEventType = z.enum(WEBHOOK_ALL_EVENT_TYPES);
export type TWebhookEventType = z.infer<typeof ZWebhookEventType>;
export type TEmittedWebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** The type of the deliveries the test-send button makes (not subscribable). */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** What each event means, for people choosing what to subscribe to. */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<TWebhookEventType, string> = {
  'conversation.created': 'A conversation was opened (any channel).',
  'conversation.updated': 'A conversation changed: status, assignee, chat group or read state.',
  'conversation.resolved': 'A conversation was resolved.',
  'message.created': 'A message was added to a conversation (from the customer, staff or an agent).',
  'send.status_changed':
    'An outbound email, SMS or WhatsApp send changed status (sent, delivered, read, failed…).',
  'customer.created': 'A customer was added to the directory.',
  'customer.updated': 'A customer’s details changed.',
  'customer.erased': 'A customer was erased.',
  'consent.changed': 'A customer’s marketing consent changed on a channel.',
  'form.submitted': 'A visitor submitted a QR form.',
  'agent_run.finished': 'An AI agent’s run finished.',
  'campaign.started': 'A campaign began sending (its scheduled time came).',
  'campaign.finished': 'A campaign ended: every recipient’s send recorded, or it was cancelled.',
  'journey.entered': 'A customer entered a journey (its trigger fired).',
  'journey.step_completed':
    'A customer finished a step of a journey (a wait, branch, send or update): passed, or failed and why.',
  'journey.exited':
    'A customer left a journey: at an exit or the end of a path (exited), or on a failed step.',
};

export const WEBHOOK_ERRORS = {
  eventTypesRequired: 'Choose at least one event type.',
  eventTypesRepeated: 'Each event type may be chosen once.',
} as const;

/** The JSON body of every delivery: flat, so Zapier and n8n can map its fields. */
export const ZWebhookEventBody = z.object({
  type: z.string(),
  /** When the change happened (ISO 8601). */
  timestamp: z.string(),
  data: z.record(z.string(), z.unknown()),
});
export type TWebhookEventBody = z.infer<typeof ZWebhookEventBody>;

const ZEventTypes = z
  .array(ZWebhookEventType)
  .min(1, WEBHOOK_ERRORS.eventTypesRequired)
  .max(WEBHOOK_ALL_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, WEBHOOK_ERRORS.eventTypesRepeated);

/** `POST /api/webhooks/endpoints/`. The URL's SSRF rules are checked by the server. */
export const ZWebhookEndpointRequest = z.object({
  url: z.string().trim().min(1).max(2000),
  event_types: ZEventTypes,
  description: z.string().trim().max(500).default(''),
});
export type TWebhookEndpointRequest = z.input<typeof ZWebhookEndpointRequest>;

/** `PUT …/{id}/`: any field; `enabled: true` turns a disabled endpoint back on. A new URL gets a new secret. */
export const ZWebhookEndpointUpdate = z.object({
  url: z.string().trim().min(1).max(2000).optional(),
  event_types: ZEventTypes.optional(),
  description: z.string().trim().max(500).optional(),
  enabled: z.boolean().optional(),
});
export type TWebhookEndpointUpdate = z.infer<typeof ZWebhookEndpointUpdate>;

export const ZWebhookEndpoint = z.object({
  id: z.number().int(),
  url: z.string(),
  event_types: z.array(z.string()),
  description: z.string(),
  enabled: z.boolean(),
  /** Why Titan turned it off (sustained failure), or null. */
  disabled_reason: z.string().nullable(),
  /** Since when every delivery has failed, or null while it answers. */
  failing_since: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

/** An endpoint as created (or given a new URL): the signing secret, shown this once. */
export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({
  secret: z.string().nullable(),
});
export type TWebhookEndpointWithSecret = z.infer<typeof ZWebhookEndpointWithSecret>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const ZWebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES);

export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  endpoint_id: z.number().int(),
  /** The `webhook-id` header: the same on every attempt and replay, for receivers to deduplicate. */
  event_id: z.string(),
  event_type: z.string(),
  status: ZWebhookDeliveryStatus,
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  /** The body sent (truncated to 4 KB). */
  request_body: z.string(),
  response_status: z.number().int().nullable(),
  /** The receiver's answer (truncated to 4 KB). */
  response_body: z.string().nullable(),
  /** Why the last attempt failed, in words. */
  error: z.string().nullable(),
  duration_ms: z.number().int().nullable(),
  created_at: z.string(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
export const ZWebhookDeliveryPage = ZPage(ZWebhookDelivery);

export const ZWebhookDeliveryQuery = ZPageQuery.extend({
  status: ZWebhookDeliveryStatus.optional(),
}).strict();
export type TWebhookDeliveryQuery = z.infer<typeof ZWebhookDeliveryQuery>;

export const ZWebhookReplayResult = z.object({ replayed: z.number().int() });
