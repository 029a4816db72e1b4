// The tenancy matrix: every business-scoped route the app registers is called by business B's
// owner (and B's API key) with business A's ids and with A's business code, and must answer
// 403/404 while A's data stays as it was. Routes are collected as they register, so a new route
// is in the matrix the day it is added: one whose ids the matrix cannot fill fails the test.
import type { FastifyContextConfig, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CUSTOM_ROLE_PERMISSIONS,
  type TBusiness,
  type TConversation,
  type TMember,
  type TWhatsappLog,
} from '@titan/contracts';
import { insertBroadcast } from '../modules/broadcasts/broadcasts.repository';
import { insertDeliveries, insertRun } from '../modules/agents/agents.runs.repository';
import { startConversation } from '../modules/conversations/conversations.service';
import { addMember, as, createBusiness, signUp, uniqueEmail, type Session } from '../testing/identity';
import type { TestRuntime } from '../testing/test-runtime';
import { startWhatsappBench, type WhatsappBench } from '../testing/whatsapp';

/** The ids one business holds, one of each kind a route may take. */
type Ids = {
  conversation: number;
  waConversation: number;
  customer: number;
  chatGroup: number;
  /** A member's user id (chat group users are addressed by user). */
  user: number;
  /** A membership id (team routes). */
  member: number;
  apiKey: number;
  /** A custom role (issue 34), scoped to the business's chat group. */
  customRole: number;
  invitation: number;
  joinRequest: number;
  media: string;
  template: string;
  trackingId: string;
  /** Sends of the channels whose modules come later, written straight into the spine. */
  emailSend: string;
  smsSend: string;
  /** A bulk email send (its batch row written straight into email_batches). */
  emailBatch: string;
  fileKey: string;
  phoneNumberId: string;
  emailTemplate: number;
  /** A block saved from the visual editor (issue 31). */
  emailBlock: number;
  customerList: number;
  broadcast: string;
  customerImport: string;
  /** A knowledge-base import (queued: no worker runs it here). */
  kbImport: number;
  /** An AI copilot run of the business's conversation (written straight into ai_runs). */
  aiRun: string;
  emailDomain: number;
  /** An inbox address on the business's (verified) domain (issue 30). */
  emailInbox: number;
  agent: number;
  mcpServer: number;
  userPlugin: number;
  webhookEndpoint: number;
  webhookDelivery: number;
  /** A run of the agent (written straight into agent_runs) and its delivery waiting for approval. */
  agentRun: string;
  agentDelivery: string;
  /** A notification of the business's agent (a note's mention). */
  notification: number;
  label: number;
  canned: number;
  kbCategory: number;
  kbArticle: number;
  consentTopic: number;
  /** A draft campaign to the business's list (issue 31). */
  campaign: string;
  /** A journey sending the business's template, adding to its list and label, opening a conversation in its group (issue 32). */
  journey: number;
};

/** Which id fills each path parameter, per route. A new route with parameters belongs here. */
const PATH_PARAMS: Record<string, Record<string, keyof Ids>> = {
  '/api/auth/api-keys/:id/': { id: 'apiKey' },
  '/api/business/roles/:id/': { id: 'customRole' },
  '/api/msg/chat-groups/:id/': { id: 'chatGroup' },
  '/api/msg/chat-groups/:id/users/': { id: 'chatGroup' },
  '/api/msg/chat-groups/:id/users/:userId/': { id: 'chatGroup', userId: 'user' },
  '/api/msg/conversations/:id/': { id: 'conversation' },
  '/api/msg/conversations/:id/messages/': { id: 'conversation' },
  '/api/msg/conversations/:id/notes/': { id: 'conversation' },
  '/api/msg/labels/:id/': { id: 'label' },
  '/api/msg/canned-responses/:id/': { id: 'canned' },
  '/api/msg/canned-responses/:id/render/': { id: 'canned' },
  '/api/business/customer-directory/:id/': { id: 'customer' },
  '/api/business/customer-directory/:id/end-session/': { id: 'customer' },
  '/api/business/customer-directory/:id/conversations/': { id: 'customer' },
  '/api/business/customer-directory/:id/sends/': { id: 'customer' },
  '/api/business/customer-directory/:id/lists/': { id: 'customer' },
  '/api/business/customer-directory/:id/export/': { id: 'customer' },
  '/api/business/customer-directory/:id/erase/': { id: 'customer' },
  '/api/business/users/:id/': { id: 'member' },
  '/api/business/users/invitations/:id/': { id: 'invitation' },
  '/api/business/users/join-requests/:id/': { id: 'joinRequest' },
  '/api/whatsapp/conversations/:id/messages/': { id: 'waConversation' },
  '/api/whatsapp/conversations/:id/window/': { id: 'waConversation' },
  '/api/whatsapp/media/:id/': { id: 'media' },
  '/api/whatsapp/template/:name/': { name: 'template' },
  '/api/whatsapp/events/:trackingId/': { trackingId: 'trackingId' },
  '/api/email/events/:trackingId/': { trackingId: 'emailSend' },
  '/api/sms/events/:trackingId/': { trackingId: 'smsSend' },
  '/api/template/:id/': { id: 'emailTemplate' },
  '/api/template/:id/versions/': { id: 'emailTemplate' },
  '/api/template/:id/preview/': { id: 'emailTemplate' },
  '/api/template/blocks/:id/': { id: 'emailBlock' },
  '/api/business/customer-lists/:id/': { id: 'customerList' },
  '/api/business/customer-lists/:id/members/': { id: 'customerList' },
  '/api/business/customer-lists/:id/members/remove/': { id: 'customerList' },
  '/api/broadcasts/:id/': { id: 'broadcast' },
  '/api/broadcasts/:id/cancel/': { id: 'broadcast' },
  '/api/business/customer-directory/imports/:id/': { id: 'customerImport' },
  '/api/business/customer-directory/imports/:id/errors/': { id: 'customerImport' },
  '/api/email/domains/:id/': { id: 'emailDomain' },
  '/api/email/inboxes/:id/': { id: 'emailInbox' },
  '/api/template/:id/test/': { id: 'emailTemplate' },
  '/api/email/domains/:id/verify/': { id: 'emailDomain' },
  '/api/agents/send-mail/:batch_id/': { batch_id: 'emailBatch' },
  '/api/agents/send-sms/:batch_id/': { batch_id: 'broadcast' },
  '/api/agents/:id/': { id: 'agent' },
  '/api/agents/:id/avatar/': { id: 'agent' },
  '/api/agents/:id/update-agent-config/': { id: 'agent' },
  '/api/agents/:id/config-versions/': { id: 'agent' },
  '/api/agents/:id/schedule/': { id: 'agent' },
  '/api/config/mcp-servers/:id/': { id: 'mcpServer' },
  '/api/config/mcp-servers/:id/connect/': { id: 'mcpServer' },
  '/api/config/mcp-servers/:id/tools/': { id: 'mcpServer' },
  '/api/user-plugins/:id/': { id: 'userPlugin' },
  '/api/user-plugins/:id/connect/': { id: 'userPlugin' },
  '/api/agents/:id/runs/': { id: 'agent' },
  '/api/agents/:id/runs/:runId/': { id: 'agent', runId: 'agentRun' },
  '/api/agents/:id/runs/:runId/approve/': { id: 'agent', runId: 'agentRun' },
  '/api/agents/:id/runs/:runId/reject/': { id: 'agent', runId: 'agentRun' },
  '/api/agents/:id/preview/': { id: 'agent' },
  '/api/agents/:id/run-now/': { id: 'agent' },
  '/api/webhooks/endpoints/:id/': { id: 'webhookEndpoint' },
  '/api/webhooks/endpoints/:id/deliveries/': { id: 'webhookEndpoint' },
  '/api/webhooks/endpoints/:id/replay-failed/': { id: 'webhookEndpoint' },
  '/api/webhooks/endpoints/:id/test/': { id: 'webhookEndpoint' },
  '/api/webhooks/endpoints/deliveries/:id/replay/': { id: 'webhookDelivery' },
  '/api/kb/categories/:id/': { id: 'kbCategory' },
  '/api/kb/articles/:id/': { id: 'kbArticle' },
  '/api/consent/topics/:id/': { id: 'consentTopic' },
  '/api/kb/imports/:id/': { id: 'kbImport' },
  '/api/ai/runs/:id/': { id: 'aiRun' },
  '/api/ai/runs/:id/rating/': { id: 'aiRun' },
  '/api/campaigns/:id/': { id: 'campaign' },
  '/api/campaigns/:id/checklist/': { id: 'campaign' },
  '/api/campaigns/:id/test/': { id: 'campaign' },
  '/api/campaigns/:id/schedule/': { id: 'campaign' },
  '/api/campaigns/:id/pause/': { id: 'campaign' },
  '/api/campaigns/:id/resume/': { id: 'campaign' },
  '/api/campaigns/:id/cancel/': { id: 'campaign' },
  '/api/campaigns/:id/report/': { id: 'campaign' },
  '/api/campaigns/:id/recipients/': { id: 'campaign' },
  '/api/campaigns/:id/download/': { id: 'campaign' },
  '/api/journeys/:id/': { id: 'journey' },
  '/api/journeys/:id/publish/': { id: 'journey' },
  '/api/journeys/:id/pause/': { id: 'journey' },
  '/api/journeys/:id/stats/': { id: 'journey' },
  '/api/journeys/:id/test/': { id: 'journey' },
  '/api/journeys/:id/move-in-flight/': { id: 'journey' },
  '/api/journeys/:id/customers/:customerId/': { id: 'journey', customerId: 'customer' },
};

type Input = { json?: unknown; form?: (ids: Ids) => FormData; query?: Record<string, string> };

/**
 * A valid body for each route that takes one, filled with the given business's ids, so that a
 * call reaches the handler instead of stopping at validation. `idsInBody` marks bodies that
 * reference other objects: those are also sent on B's own path (or none) with A's ids inside.
 */
const segmentBody = (ids: Ids) => ({
  name: 'Taken over',
  kind: 'segment',
  rules: { all: [{ event: 'clicked', campaign_id: ids.campaign, within_days: 7 }] },
});

const INPUTS: Record<string, { input: (ids: Ids) => Input; idsInBody?: boolean }> = {
  'POST /api/campaigns/': { input: (ids) => ({ json: campaignBody(ids) }), idsInBody: true },
  'PUT /api/campaigns/:id/': { input: (ids) => ({ json: campaignBody(ids) }), idsInBody: true },
  'POST /api/journeys/': { input: (ids) => ({ json: journeyBody(ids) }), idsInBody: true },
  'PUT /api/journeys/:id/': { input: (ids) => ({ json: journeyBody(ids) }), idsInBody: true },
  'POST /api/journeys/:id/test/': {
    input: (ids) => ({ json: { customer_id: ids.customer, clock_speed: 60 } }),
    idsInBody: true,
  },
  'POST /api/journeys/:id/move-in-flight/': { input: () => ({ json: { to_node: 'tag' } }) },
  'POST /api/events/': {
    input: (ids) => ({ json: { name: 'matrix.event', customer: { id: ids.customer } } }),
    idsInBody: true,
  },
  // The segment builder's count with A's list, label and topic: 400 (not B's), never A's count.
  'POST /api/business/customer-lists/segments/count/': {
    input: (ids) => ({
      json: {
        rules: {
          any: [
            { field: 'list', op: 'in', value: ids.customerList },
            { field: 'label', op: 'in', value: ids.label },
            { field: 'topic', op: 'in', value: ids.consentTopic },
            { event: 'opened', campaign_id: ids.campaign, within_days: 30 },
          ],
        },
      },
    }),
    idsInBody: true,
  },
  // A segment naming A's campaign in a behaviour rule: 400 (not B's), never A's audience.
  'POST /api/business/customer-lists/': {
    input: (ids) => ({ json: segmentBody(ids) }),
    idsInBody: true,
  },
  'PUT /api/business/customer-lists/:id/': {
    input: (ids) => ({ json: { name: 'Taken over', rules: segmentBody(ids).rules } }),
    idsInBody: true,
  },
  'POST /api/campaigns/audience/count/': {
    input: (ids) => ({ json: { channel: 'email', audience: { list_ids: [ids.customerList] } } }),
    idsInBody: true,
  },
  'POST /api/campaigns/:id/test/': {
    input: (ids) => ({ json: { to: ['staff@example.test'], customer_id: ids.customer } }),
    idsInBody: true,
  },
  'PUT /api/email/domains/:id/': { input: () => ({ json: { default_from: null } }) },
  'POST /api/kb/categories/': { input: () => ({ json: { name: 'Taken over' } }) },
  'PUT /api/kb/categories/:id/': { input: () => ({ json: { name: 'Taken over' } }) },
  'POST /api/kb/articles/': {
    input: (ids) => ({ json: { title: 'Taken over', category_id: ids.kbCategory } }),
    idsInBody: true,
  },
  'PUT /api/kb/articles/:id/': {
    input: (ids) => ({ json: { title: 'Taken over', category_id: ids.kbCategory } }),
    idsInBody: true,
  },
  'GET /api/kb/search/': { input: () => ({ query: { q: 'refund' } }) },
  'POST /api/ai/suggest-reply/': {
    input: (ids) => ({ json: { conversation_id: ids.conversation } }),
    idsInBody: true,
  },
  'POST /api/ai/summarize/': {
    input: (ids) => ({ json: { conversation_id: ids.conversation } }),
    idsInBody: true,
  },
  'POST /api/ai/rewrite/': { input: () => ({ json: { text: 'Taken over', action: 'improve' } }) },
  'POST /api/ai/ask/': {
    input: (ids) => ({ json: { conversation_id: ids.conversation, question: 'Taken over?' } }),
    idsInBody: true,
  },
  'POST /api/ai/article-drafts/': {
    input: (ids) => ({ json: { conversation_id: ids.conversation, message_id: 1 } }),
    idsInBody: true,
  },
  'GET /api/ai/runs/': {
    input: (ids) => ({ query: { conversation_id: String(ids.conversation) } }),
    idsInBody: true,
  },
  'PUT /api/ai/runs/:id/rating/': { input: () => ({ json: { rating: 'bad', reason: 'Taken over' } }) },
  'POST /api/kb/imports/': {
    input: (ids) => ({ json: { urls: ['http://localhost:4998/taken-over'], category_id: ids.kbCategory } }),
    idsInBody: true,
  },
  'PUT /api/msg/chat-groups/:id/': {
    input: (ids) => ({
      json: {
        name: 'Taken over',
        ai_responder: { mode: 'always', tools: [{ source: 'mcp', server_id: ids.mcpServer, name: 'x' }] },
      },
    }),
    idsInBody: true,
  },
  'POST /api/msg/chat-groups/': {
    input: (ids) => ({
      json: {
        name: 'Taken over',
        slug: 'taken-over',
        ai_responder: { mode: 'always', tools: [{ source: 'mcp', server_id: ids.mcpServer, name: 'x' }] },
      },
    }),
    idsInBody: true,
  },
  'POST /api/business/roles/': {
    input: (ids) => ({
      json: { name: 'Taken over', permissions: ['engage.read'], chat_group_ids: [ids.chatGroup] },
    }),
    idsInBody: true,
  },
  'PUT /api/business/roles/:id/': {
    input: (ids) => ({
      json: { name: 'Taken over', permissions: ['engage.read'], chat_group_ids: [ids.chatGroup] },
    }),
    idsInBody: true,
  },
  'POST /api/msg/chat-groups/:id/users/': {
    input: (ids) => ({ json: { user_id: ids.user } }),
    idsInBody: true,
  },
  'PUT /api/msg/conversations/:id/': {
    input: (ids) => ({
      json: { status: 'resolved', is_read: true, assignee_id: ids.user, label_ids: [ids.label] },
    }),
    idsInBody: true,
  },
  // Starting a conversation with A's customer in A's chat group: 404, nothing recorded.
  'POST /api/msg/conversations/': {
    input: (ids) => ({
      json: { channel: 'sms', customer_id: ids.customer, chat_group_id: ids.chatGroup, content: 'Hi' },
    }),
    idsInBody: true,
  },
  'POST /api/msg/conversations/bulk/': {
    input: (ids) => ({ json: { ids: [ids.conversation], assignee_id: ids.user, label_ids: [ids.label] } }),
    idsInBody: true,
  },
  'POST /api/msg/conversations/:id/notes/': {
    input: (ids) => ({ json: { content: `Over to @[Agent](member:${ids.user})` } }),
    idsInBody: true,
  },
  'POST /api/notifications/read/': {
    input: (ids) => ({ json: { ids: [ids.notification] } }),
    idsInBody: true,
  },
  'POST /api/msg/conversations/:id/messages/': {
    input: (ids) => ({ json: { message_type: 'file', content: ids.fileKey } }),
    idsInBody: true,
  },
  // Searches the caller's business only; the word is in A's seeded conversation too.
  'GET /api/msg/search/': { input: () => ({ query: { q: 'hello' } }) },
  'PUT /api/business/customer-directory/:id/': {
    input: (ids) => ({ json: { name: 'Renamed', label_ids: [ids.label] } }),
    idsInBody: true,
  },
  'PUT /api/msg/labels/:id/': { input: () => ({ json: { name: 'Taken over' } }) },
  'POST /api/msg/canned-responses/': {
    input: (ids) => ({ json: { short_code: 'taken', content: 'Hi', attachment_id: ids.fileKey } }),
    idsInBody: true,
  },
  'PUT /api/msg/canned-responses/:id/': {
    input: (ids) => ({ json: { content: 'Taken over', attachment_id: ids.fileKey } }),
    idsInBody: true,
  },
  'POST /api/msg/canned-responses/:id/render/': {
    input: (ids) => ({ json: { conversation_id: ids.conversation } }),
    idsInBody: true,
  },
  'GET /api/business/customer-directory/download/': {
    input: (ids) => ({ query: { list_id: String(ids.customerList) } }),
    idsInBody: true,
  },
  'PUT /api/consent/topics/:id/': { input: () => ({ json: { name: 'Taken over' } }) },
  'POST /api/business/customer-lists/:id/members/': {
    input: (ids) => ({ json: { customer_ids: [ids.customer] } }),
    idsInBody: true,
  },
  'POST /api/business/customer-lists/:id/members/remove/': {
    input: (ids) => ({ json: { customer_ids: [ids.customer] } }),
    idsInBody: true,
  },
  'PUT /api/business/users/:id/': { input: () => ({ json: { role: 'owner' } }) },
  'POST /api/business/users/join-requests/:id/': {
    input: () => ({ json: { approve: true, role: 'owner' } }),
  },
  'POST /api/whatsapp/conversations/:id/messages/': {
    input: (ids) => ({ json: { type: 'image', image: { id: ids.media } } }),
    idsInBody: true,
  },
  'POST /api/whatsapp/message/send-template/': {
    input: (ids) => ({
      json: {
        conversation_id: ids.waConversation,
        name: 'spring_sale',
        language: 'en_US',
        components: [{ type: 'body', parameters: [{ type: 'text', text: '30%' }] }],
      },
    }),
    idsInBody: true,
  },
  'PUT /api/whatsapp/account/': {
    input: (ids) => ({
      json: {
        phone_number_id: ids.phoneNumberId,
        waba_id: '1022901293999',
        display_phone_number: '+1 555 0999',
        verify_token: 'verify-token-taken-over',
      },
    }),
    idsInBody: true,
  },
  'POST /api/business/customer-directory/import/': {
    input: () => ({
      form: (ids) => {
        const form = new FormData();
        form.append('list_id', String(ids.customerList));
        form.append(
          'file',
          new Blob([Buffer.from('name,email\nMal,mal@example.com\n')], { type: 'text/csv' }),
          'x.csv',
        );
        return form;
      },
    }),
    idsInBody: true,
  },
  'POST /api/agents/send-sms/': {
    input: (ids) => ({ json: { customer_id: ids.customer, body: 'Hi' } }),
    idsInBody: true,
  },
  'POST /api/email/inboxes/': {
    input: (ids) => ({
      json: { domain_id: ids.emailDomain, local_part: 'taken', chat_group_id: ids.chatGroup },
    }),
    idsInBody: true,
  },
  'POST /api/agents/send-mail/': {
    input: (ids) => ({
      json: { from: 'news@tenant.test', customer_id: ids.customer, subject: 'Hi', text: 'Hi' },
    }),
    idsInBody: true,
  },
  'POST /api/upload/': {
    input: () => ({
      form: (ids) => {
        const form = new FormData();
        form.append('prefix', 'public/public_chat_media');
        form.append('conversation_id', String(ids.conversation));
        form.append('file', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'note.txt');
        return form;
      },
    }),
    idsInBody: true,
  },
  'POST /api/template/:id/test/': {
    input: () => ({ json: { to: 'x@example.com', from: 'news@tenant.test' } }),
  },
  'PUT /api/template/:id/': { input: () => ({ json: { subject: 'Taken over' } }) },
  'PUT /api/business/frequency-cap/': {
    input: () => ({ json: { enabled: true, max_messages: 1, period_days: 30 } }),
  },
  'PUT /api/business/qr-schema/': {
    input: (ids) => ({
      json: {
        title: 'Taken over',
        fields: [{ name: 'email', label: 'Email', type: 'email' }],
        list_id: ids.customerList,
      },
    }),
    idsInBody: true,
  },
  'POST /api/template/:id/preview/': {
    input: (ids) => ({ json: { customer_id: ids.customer, variables: {} } }),
    idsInBody: true,
  },
  'POST /api/template/preview/': {
    input: (ids) => ({
      json: {
        customer_id: ids.customer,
        draft: { subject: 'Hi {{ customer.name }}', format: 'html', content: '<p>x</p>' },
      },
    }),
    idsInBody: true,
  },
  'POST /api/agents/': {
    input: (ids) => ({ json: { name: 'Taken over', config: agentConfig(ids) } }),
    idsInBody: true,
  },
  'PUT /api/agents/:id/': { input: () => ({ json: { name: 'Taken over', avatar_url: null } }) },
  'PUT /api/config/mcp-servers/:id/': { input: () => ({ json: { name: 'Taken over' } }) },
  'PUT /api/user-plugins/:id/': { input: () => ({ json: { name: 'Taken over' } }) },
  'PUT /api/webhooks/endpoints/:id/': { input: () => ({ json: { description: 'Taken over' } }) },
  'POST /api/agents/:id/update-agent-config/': {
    input: (ids) => ({ json: agentConfig(ids) }),
    idsInBody: true,
  },
  'POST /api/agents/:id/runs/:runId/approve/': {
    input: (ids) => ({ json: { delivery_ids: [ids.agentDelivery] } }),
    idsInBody: true,
  },
  'POST /api/agents/:id/runs/:runId/reject/': {
    input: (ids) => ({ json: { delivery_ids: [ids.agentDelivery] } }),
    idsInBody: true,
  },
  'POST /api/agents/:id/preview/': {
    input: (ids) => ({ json: { customer_ids: [ids.customer] } }),
    idsInBody: true,
  },
  'POST /api/agents/:id/run-now/': { input: () => ({ json: {} }) },
  'PUT /api/agents/:id/schedule/': {
    input: () => ({ json: { kind: 'interval', every_minutes: 5, timezone: 'Europe/Berlin' } }),
  },
  'POST /api/agents/:id/avatar/': {
    input: () => ({
      form: () => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(PNG_DOT)], { type: 'image/png' }), 'face.png');
        return form;
      },
    }),
  },
  'POST /api/template/template-images/': {
    input: () => ({
      form: (ids) => {
        const form = new FormData();
        form.append('template_id', String(ids.emailTemplate));
        form.append('file', new Blob([new Uint8Array(PNG_DOT)], { type: 'image/png' }), 'dot.png');
        return form;
      },
    }),
    idsInBody: true,
  },
};

/** An agent config naming the business's list and email template. */
function agentConfig(ids: Ids) {
  return {
    instructions: 'Hello',
    goal: 'Matrix',
    audience: { list_ids: [ids.customerList] },
    channels: [{ channel: 'email', template_id: ids.emailTemplate }],
  };
}

/** Signed-in routes that are not business-scoped, each with why it needs no tenant. */
const NOT_BUSINESS_SCOPED: Record<string, string> = {
  'POST /api/business/': 'creates a new business; the caller becomes its owner',
  'GET /api/users/profile/': "the caller's own profile",
  'PUT /api/users/profile/': "the caller's own profile",
  'PUT /api/users/presence/':
    "the caller's own presence, shown to each business they belong to (presence-assignment.test.ts)",
  'POST /api/business/users/assign/':
    "acts on the caller's own membership: an invitation token addressed to their email, or a join request",
  'GET /api/auth/2fa/': "the caller's own second factors",
  'POST /api/auth/password/change/': "the caller's own password",
  'POST /api/auth/2fa/totp/setup/': "the caller's own TOTP",
  'POST /api/auth/2fa/totp/confirm/': "the caller's own TOTP",
  'DELETE /api/auth/2fa/totp/': "the caller's own TOTP",
  'POST /api/auth/2fa/recovery-codes/': "the caller's own recovery codes",
  'POST /api/auth/webauthn/register/options/': "the caller's own passkeys",
  'POST /api/auth/webauthn/register/verify/': "the caller's own passkeys",
  'DELETE /api/auth/webauthn/credentials/:id/': "the caller's own passkeys (another's id: 404)",
  'GET /api/auth/sessions/':
    "the caller's own sessions; a member's only for an owner of a business both belong to (else 404, mfa.test.ts)",
  'DELETE /api/auth/sessions/:id/':
    "the caller's own session; a member's only for an owner of a business both belong to (else 404, mfa.test.ts)",
};

const PNG_DOT = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/**
 * Reads (GET, and their HEAD) whose query ids only filter the caller's own business's rows (a foreign id matches none of
 * them, so the answer is an empty result, not another business's data), each with why.
 */
const QUERY_FILTER_IDS: Record<string, string> = {
  'GET /api/kb/articles/': "category_id filters this business's articles; a foreign id matches none",
  'GET /api/email/events/': "template_id filters this business's sends; a foreign id matches none",
  'GET /api/email/events/download/': "template_id filters this business's sends; a foreign id matches none",
  'GET /api/sms/events/': "template_id filters this business's sends; a foreign id matches none",
  'GET /api/sms/events/download/': "template_id filters this business's sends; a foreign id matches none",
  'GET /api/whatsapp/events/': "agent_id filters this business's sends; a foreign id matches none",
  'GET /api/whatsapp/events/download/': "agent_id filters this business's sends; a foreign id matches none",
  'GET /api/sms/inbound/': "customer_id filters this business's texts; a foreign id matches none",
  'GET /api/metrics/email-metrics/':
    "template_id and agent_id filter this business's sends; a foreign id counts none",
};

/** Body or query fields that hold another object's id: such a route needs `idsInBody`. */
const ID_FIELD = /(^|_)ids?$/;

type ZodLike = { _zod?: { def: Record<string, unknown> } };

/** The dotted paths of id-like fields anywhere in a zod schema. */
function idFields(schema: unknown, prefix = ''): string[] {
  const def = (schema as ZodLike | undefined)?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, inner]) => [
        ...(ID_FIELD.test(key) ? [`${prefix}${key}`] : []),
        ...idFields(inner, `${prefix}${key}.`),
      ]);
    case 'union':
      return [...new Set((def.options as unknown[]).flatMap((o) => idFields(o, prefix)))];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return idFields(def.innerType, prefix);
    case 'pipe':
      return idFields(def.in, prefix);
    case 'array':
      return idFields(def.element, prefix);
    default:
      return [];
  }
}

type Route = { method: string; url: string; options: RouteOptions };

const collected: RouteOptions[] = [];
let bench: WhatsappBench;
let rt: TestRuntime;
let a: { owner: Session; business: TBusiness; ids: Ids };
let b: { owner: Session; business: TBusiness; ids: Ids; apiKey: string; customKey: string };
let routes: Route[];

const configOf = (route: Route): FastifyContextConfig => (route.options.config ?? {}) as FastifyContextConfig;
const keyOf = (route: { method: string; url: string }) => `${route.method} ${route.url}`;
/** HEAD answers what GET answers: the allow-lists and inputs are written for GET. */
const listedKey = (route: Route) =>
  keyOf({ ...route, method: route.method === 'HEAD' ? 'GET' : route.method });

function fill(route: Route, ids: Ids): string {
  const kinds = PATH_PARAMS[route.url] ?? {};
  return route.url.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const kind = kinds[name];
    if (!kind) throw new Error(`no id kind for :${name} in ${route.url}`);
    return encodeURIComponent(String(ids[kind]));
  });
}

const pathParams = (url: string) => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);

type Caller = { authorization: string; 'x-business-code'?: string };

async function call(route: Route, url: string, headers: Caller, input: Input | undefined, ids: Ids) {
  if (input?.query) url = `${url}?${new URLSearchParams(input.query).toString()}`;
  if (input?.form) {
    const res = await fetch(`${bench.base}${url}`, {
      method: route.method,
      headers: { ...headers },
      body: input.form(ids),
    });
    return { status: res.status, body: await res.text() };
  }
  const res = await rt.app!.inject({
    method: route.method as 'GET',
    url,
    headers: { ...headers },
    ...(input?.json !== undefined ? { payload: input.json as object } : {}),
  });
  return { status: res.statusCode, body: res.body };
}

/** A campaign to the business's list (the matrix's POST and PUT bodies, and A's draft). */
function campaignBody(ids: Ids) {
  return {
    name: 'Matrix campaign',
    channel: 'email',
    sender: 'News <news@example.test>',
    audience: { list_ids: [ids.customerList] },
    content: { subject: 'Hello', html: '<p>Hello</p>' },
  };
}

function journeyBody(ids: Ids) {
  return {
    name: 'Matrix journey',
    graph: {
      nodes: [
        { id: 'start', type: 'trigger', config: { kind: 'event', event: 'matrix.event' } },
        {
          id: 'mail',
          type: 'send',
          config: { channel: 'email', template_id: ids.emailTemplate, from: 'News <news@example.test>' },
        },
        {
          id: 'tag',
          type: 'update',
          config: { add_list_ids: [ids.customerList], add_label_ids: [ids.label] },
        },
        {
          id: 'talk',
          type: 'conversation',
          config: { chat_group_id: ids.chatGroup, assignee_id: ids.user },
        },
      ],
      edges: [
        { from: 'start', to: 'mail' },
        { from: 'mail', to: 'tag' },
        { from: 'tag', to: 'talk' },
      ],
    },
  };
}

/** What A's owner sees of A: compared before and after every foreign write. */
async function stateOfA(): Promise<Record<string, unknown>> {
  const reads = [
    '/api/business/',
    '/api/business/users/',
    '/api/business/users/invitations/',
    '/api/business/users/join-requests/',
    '/api/auth/api-keys/',
    '/api/business/roles/',
    `/api/business/roles/${a.ids.customRole}/`,
    '/api/msg/chat-groups/',
    `/api/msg/chat-groups/${a.ids.chatGroup}/users/`,
    '/api/msg/widget-settings/',
    '/api/msg/conversations/?page_size=100',
    `/api/msg/conversations/${a.ids.conversation}/messages/`,
    `/api/msg/conversations/${a.ids.waConversation}/messages/`,
    '/api/business/customer-directory/?page_size=100',
    '/api/business/customer-lists/',
    `/api/business/customer-lists/${a.ids.customerList}/members/`,
    `/api/broadcasts/${a.ids.broadcast}/`,
    `/api/business/customer-directory/imports/${a.ids.customerImport}/`,
    '/api/whatsapp/account/',
    '/api/whatsapp/template/',
    '/api/whatsapp/events/?page_size=100',
    '/api/email/domains/',
    '/api/email/inboxes/',
    '/api/template/',
    `/api/template/${a.ids.emailTemplate}/`,
    `/api/template/${a.ids.emailTemplate}/versions/`,
    '/api/business/qr-schema/',
    '/api/business/frequency-cap/',
    '/api/config/llm/',
    '/api/agents/',
    `/api/agents/${a.ids.agent}/config-versions/`,
    `/api/agents/${a.ids.agent}/schedule/`,
    '/api/config/mcp-servers/',
    `/api/config/mcp-servers/${a.ids.mcpServer}/tools/`,
    '/api/user-plugins/',
    `/api/agents/${a.ids.agent}/runs/`,
    `/api/agents/${a.ids.agent}/runs/${a.ids.agentRun}/`,
    '/api/notifications/',
    '/api/notifications/preferences/',
    '/api/msg/labels/',
    '/api/msg/canned-responses/',
    '/api/webhooks/endpoints/',
    `/api/webhooks/endpoints/${a.ids.webhookEndpoint}/deliveries/`,
    '/api/kb/categories/',
    '/api/kb/articles/?page_size=100',
    `/api/kb/articles/${a.ids.kbArticle}/`,
    '/api/consent/topics/',
    `/api/consent/topics/${a.ids.consentTopic}/`,
    '/api/consent/page/',
    '/api/kb/imports/',
    `/api/kb/imports/${a.ids.kbImport}/`,
    `/api/ai/runs/${a.ids.aiRun}/`,
    `/api/ai/runs/?conversation_id=${a.ids.conversation}`,
    '/api/ai/report/?from=2020-01-01T00:00:00Z&to=2100-01-01T00:00:00Z',
    '/api/campaigns/',
    `/api/campaigns/${a.ids.campaign}/`,
    '/api/journeys/',
    `/api/journeys/${a.ids.journey}/`,
    `/api/journeys/${a.ids.journey}/stats/`,
    `/api/journeys/${a.ids.journey}/customers/${a.ids.customer}/`,
  ];
  const state: Record<string, unknown> = {};
  for (const url of reads) {
    const res = await rt.app!.inject({ method: 'GET', url, headers: as(a.owner, a.business) });
    expect(res.statusCode, url).toBe(200);
    state[url] = res.json().result;
  }
  return state;
}

async function inject(
  session: Session,
  business: TBusiness | undefined,
  method: string,
  url: string,
  payload?: object,
) {
  const res = await rt.app!.inject({
    method: method as 'GET',
    url,
    headers: as(session, business),
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return res.json().result;
}

async function upload(session: Session, business: TBusiness, url: string, form: FormData, expected = 201) {
  const res = await fetch(`${bench.base}${url}`, {
    method: 'POST',
    headers: as(session, business),
    body: form,
  });
  const body = (await res.json()) as { result: Record<string, unknown> };
  if (res.status !== expected) throw new Error(`${url} answered ${res.status}: ${JSON.stringify(body)}`);
  return body.result;
}

/** A business with one object of each kind (WhatsApp ones only where a number is connected). */
async function populate(
  owner: Session,
  business: TBusiness,
  slug: string,
): Promise<{ ids: Ids; apiKey: string; customKey: string }> {
  const app = rt.app!;
  const group = await inject(owner, business, 'POST', '/api/msg/chat-groups/', { name: slug, slug });
  const agent = await addMember(app, rt.mailer, owner, business, 'agent');
  await inject(owner, business, 'POST', `/api/msg/chat-groups/${group.id}/users/`, {
    user_id: agent.user.pk,
  });
  const members = (await inject(owner, business, 'GET', '/api/business/users/')) as TMember[];
  const member = members.find((m) => m.user.pk === agent.user.pk)!;

  const visitor = await app.inject({
    method: 'POST',
    url: '/api/public/customers/',
    payload: {
      business_code: business.unique_code,
      group_slug: slug,
      name: 'Vera',
      email: uniqueEmail('vera'),
    },
  });
  expect(visitor.statusCode).toBe(201);
  const { customer, token } = visitor.json().result;
  const visitorHeaders = { authorization: `Visitor ${token}` };
  const started = await app.inject({
    method: 'POST',
    url: '/api/public/conversations/',
    headers: visitorHeaders,
    payload: { group_slug: slug, title: 'Question' },
  });
  expect(started.statusCode).toBe(201);
  const conversation = started.json().result.id as number;
  const said = await app.inject({
    method: 'POST',
    url: `/api/public/conversations/${conversation}/messages/`,
    headers: visitorHeaders,
    payload: { message_type: 'text', content: 'Hello there' },
  });
  expect(said.statusCode).toBe(201);

  const fileForm = new FormData();
  fileForm.append('prefix', 'customer_lists');
  fileForm.append('file', new Blob([Buffer.from('name,email\n')], { type: 'text/csv' }), 'list.csv');
  const file = await upload(owner, business, '/api/upload/', fileForm);

  const emailTemplate = await inject(owner, business, 'POST', '/api/template/', {
    name: `Welcome ${slug}`,
    subject: 'Hi {{ customer.name }}',
    format: 'html',
    content: '<p>Hello {{ customer.name }}</p>',
  });
  const emailBlock = await inject(owner, business, 'POST', '/api/template/blocks/', {
    name: `Block ${slug}`,
    content: '<mj-section><mj-column><mj-text>Hours</mj-text></mj-column></mj-section>',
  });
  const apiKey = await inject(owner, business, 'POST', '/api/auth/api-keys/', { name: 'matrix' });
  // A custom role with every permission a custom role may hold, and a key that holds it: the
  // matrix calls every route with it too, so custom roles are held to the same tenancy.
  const customRole = await inject(owner, business, 'POST', '/api/business/roles/', {
    name: `Contractor ${slug}`,
    permissions: [...CUSTOM_ROLE_PERMISSIONS],
    chat_group_ids: [group.id],
  });
  const customKey = await inject(owner, business, 'POST', '/api/auth/api-keys/', {
    name: 'matrix custom',
    role: customRole.id,
  });
  const invitation = await inject(owner, business, 'POST', '/api/business/users/', {
    email: uniqueEmail('invitee'),
    role: 'agent',
  });
  const applicant = await signUp(app, rt.mailer);
  await inject(applicant, undefined, 'POST', '/api/business/users/assign/', {
    unique_code: business.unique_code,
  });
  const joinRequests = (await inject(owner, business, 'GET', '/api/business/users/join-requests/')) as {
    id: number;
  }[];
  const emailDomain = await inject(owner, business, 'POST', '/api/email/domains/', {
    domain: `${slug}.example.test`,
  });
  // Inbox addresses need a verified domain; the domains lane's own tests verify over DNS.
  await rt.database.query(`update email_domains set status = 'verified' where id = $1`, [emailDomain.id]);
  const emailInbox = await inject(owner, business, 'POST', '/api/email/inboxes/', {
    domain_id: emailDomain.id,
    local_part: 'support',
  });

  const list = await inject(owner, business, 'POST', '/api/business/customer-lists/', {
    name: `${slug} list`,
  });
  await inject(owner, business, 'POST', `/api/business/customer-lists/${list.id}/members/`, {
    customer_ids: [customer.id],
  });

  const importForm = new FormData();
  importForm.append('list_id', String(list.id));
  importForm.append(
    'file',
    new Blob([Buffer.from('name,email\nIan,ian@example.com\n')], { type: 'text/csv' }),
    'in.csv',
  );
  const customerImport = await upload(
    owner,
    business,
    '/api/business/customer-directory/import/',
    importForm,
    202,
  );

  const ids: Ids = {
    conversation,
    waConversation: 0,
    customer: customer.id,
    chatGroup: group.id,
    user: agent.user.pk,
    member: member.id,
    apiKey: apiKey.id,
    customRole: customRole.id,
    invitation: invitation.id,
    joinRequest: joinRequests[0]!.id,
    media: '',
    template: '',
    trackingId: '',
    emailSend: '',
    smsSend: '',
    emailBatch: '',
    fileKey: file.key as string,
    phoneNumberId: '',
    emailTemplate: emailTemplate.id as number,
    emailBlock: emailBlock.id as number,
    customerList: list.id as number,
    customerImport: customerImport.id as string,
    broadcast: (
      await insertBroadcast(rt.database.db, {
        businessId: business.id,
        channel: 'email',
        listId: list.id as number,
        request: {},
        total: 1,
        createdBy: null,
      })
    ).id,
    emailDomain: emailDomain.id as number,
    emailInbox: emailInbox.id as number,
    agent: 0,
    mcpServer: 0,
    userPlugin: 0,
    webhookEndpoint: 0,
    webhookDelivery: 0,
    agentRun: '',
    agentDelivery: '',
    notification: 0,
    label: 0,
    canned: 0,
    kbCategory: 0,
    kbArticle: 0,
    consentTopic: 0,
    kbImport: 0,
    aiRun: '',
    campaign: '',
    journey: 0,
  };
  const label = await inject(owner, business, 'POST', '/api/msg/labels/', {
    name: `${slug} VIP`,
    color: '#22c55e',
  });
  ids.label = label.id as number;
  await inject(owner, business, 'PUT', `/api/msg/conversations/${conversation}/`, { label_ids: [ids.label] });
  await inject(owner, business, 'PUT', `/api/business/customer-directory/${customer.id}/`, {
    label_ids: [ids.label],
  });
  const canned = await inject(owner, business, 'POST', '/api/msg/canned-responses/', {
    short_code: `${slug}-hello`,
    content: 'Hi {{ customer.name }}',
    attachment_id: ids.fileKey,
  });
  ids.canned = canned.id as number;
  // Cancelled at once: a queued broadcast would be picked up by the stalled-fan-out sweep after two
  // minutes and change under the matrix's feet (the matrix runs longer than that on a busy machine).
  await inject(owner, business, 'POST', `/api/broadcasts/${ids.broadcast}/cancel/`);
  const kbCategory = await inject(owner, business, 'POST', '/api/kb/categories/', { name: `${slug} help` });
  ids.kbCategory = kbCategory.id as number;
  const kbArticle = await inject(owner, business, 'POST', '/api/kb/articles/', {
    title: 'How refunds work',
    body_markdown: '## Refunds\n\nWe refund within 14 days.',
    category_id: ids.kbCategory,
    status: 'published',
  });
  ids.kbArticle = kbArticle.id as number;
  const consentTopic = await inject(owner, business, 'POST', '/api/consent/topics/', {
    name: `${slug} offers`,
  });
  ids.consentTopic = consentTopic.id as number;
  const kbImport = await inject(owner, business, 'POST', '/api/kb/imports/', {
    urls: ['http://localhost:4998/help'],
    category_id: ids.kbCategory,
  });
  ids.kbImport = kbImport.id as number;
  const [aiRun] = await rt.database.query<{ id: string }>(
    `insert into ai_runs (business_id, conversation_id, kind, status) values ($1, $2, 'summarize', 'done') returning id`,
    [business.id, ids.conversation],
  );
  ids.aiRun = aiRun!.id;
  const campaign = await inject(owner, business, 'POST', '/api/campaigns/', campaignBody(ids));
  ids.campaign = campaign.id as string;
  const journey = await inject(owner, business, 'POST', '/api/journeys/', journeyBody(ids));
  ids.journey = journey.id as number;
  const aiAgent = await inject(owner, business, 'POST', '/api/agents/', {
    name: `${slug} agent`,
    config: agentConfig(ids),
  });
  ids.agent = aiAgent.id as number;
  // An OAuth server waiting to be connected: registering it calls nothing outside.
  const mcpServer = await inject(owner, business, 'POST', '/api/config/mcp-servers/', {
    name: `${slug} tools`,
    url: 'http://localhost:4999/mcp',
    auth: 'oauth',
  });
  ids.mcpServer = mcpServer.id as number;
  const userPlugin = await inject(owner, business, 'POST', '/api/user-plugins/', {
    plugin: 'http-webhook',
    settings: { url: `https://${slug}.example.com/hook` },
  });
  ids.userPlugin = userPlugin.id as number;
  // A webhook endpoint with one delivery in its log (a test send to a closed local port: failed).
  // Subscribed to an event nothing here causes (customers are still made below: their deliveries,
  // retried in the background, would change A's log while B's requests run).
  const webhookEndpoint = await inject(owner, business, 'POST', '/api/webhooks/endpoints/', {
    url: 'http://localhost:4998/hook',
    event_types: ['customer.erased'],
  });
  ids.webhookEndpoint = webhookEndpoint.id as number;
  const webhookDelivery = await inject(
    owner,
    business,
    'POST',
    `/api/webhooks/endpoints/${ids.webhookEndpoint}/test/`,
  );
  ids.webhookDelivery = webhookDelivery.id as number;
  await inject(owner, business, 'PUT', `/api/agents/${ids.agent}/schedule/`, {
    kind: 'cron',
    cron: '0 9 * * 1',
    timezone: 'America/New_York',
  });
  const run = (await insertRun(rt.database.db, {
    agentId: ids.agent,
    businessId: business.id,
    channel: 'email',
    slot: new Date(),
    trigger: 'manual',
    configVersion: 1,
    sendMode: 'review',
    status: 'awaiting_approval',
  }))!;
  ids.agentRun = run.id;
  const [delivery] = await insertDeliveries(rt.database.db, [
    {
      runId: run.id,
      agentId: ids.agent,
      businessId: business.id,
      channel: 'email',
      customerId: ids.customer,
      status: 'pending_approval',
      reason: 'Matrix',
      subject: 'Hello',
      body: 'Hello',
      idempotencyKey: `agent:${ids.agent}:email:${ids.customer}:${run.slot.toISOString()}`,
    },
  ]);
  ids.agentDelivery = delivery!.id;
  // A note mentioning the agent: the agent's notification (made as the change is heard).
  await inject(owner, business, 'POST', `/api/msg/conversations/${conversation}/notes/`, {
    content: `Yours @[Agent](member:${agent.user.pk})`,
  });
  await until('the mention makes a notification', async () => {
    const [row] = await rt.database.query<{ id: string }>(
      'select id from notifications where business_id = $1 order by id desc limit 1',
      [business.id],
    );
    ids.notification = Number(row?.id ?? 0);
    return ids.notification > 0;
  });
  return { ids, apiKey: apiKey.key as string, customKey: customKey.key as string };
}

async function until(what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A's WhatsApp objects: an inbound conversation, a template send with its log, a media upload. */
async function populateWhatsapp(ids: Ids): Promise<void> {
  const { sim, owner, business } = bench;
  await inject(owner, business, 'POST', '/api/whatsapp/template/sync/');
  await sim.sendInbound({ from: '15550003001', name: 'Wanda', type: 'text', text: 'hi' });
  await until('the inbound message opens a conversation', async () => {
    const page = await inject(owner, business, 'GET', '/api/msg/conversations/?channel__in=whatsapp');
    ids.waConversation = (page.results as TConversation[])[0]?.id ?? 0;
    return ids.waConversation > 0;
  });
  const sent = await inject(owner, business, 'POST', '/api/whatsapp/message/send-template/', {
    conversation_id: ids.waConversation,
    name: 'spring_sale',
    language: 'en_US',
    components: [{ type: 'body', parameters: [{ type: 'text', text: '30%' }] }],
  });
  // Statuses arrive by webhook: wait for the last one so that A's state holds still.
  await until('the template send is read', async () => {
    const page = await inject(
      owner,
      business,
      'GET',
      `/api/whatsapp/events/?search=${encodeURIComponent(sent.id)}`,
    );
    const log = (page.results as TWhatsappLog[])[0];
    ids.trackingId = log?.tracking_id ?? '';
    return log?.status === 'read';
  });
  const form = new FormData();
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'dot.png');
  ids.media = (await upload(owner, business, '/api/whatsapp/media/', form)).id as string;
  ids.template = 'spring_sale';
  for (const channel of ['email', 'sms'] as const) {
    const [row] = await rt.database.query<{ id: string }>(
      `insert into sends (business_id, channel, cause, recipient, status, provider_request)
       values ($1, $2, 'test', 'someone', 'sent', '{}') returning id`,
      [bench.business.id, channel],
    );
    ids[channel === 'email' ? 'emailSend' : 'smsSend'] = row!.id;
  }
  const [batch] = await rt.database.query<{ id: string }>(
    `insert into email_batches (business_id, total) values ($1, 0) returning id`,
    [bench.business.id],
  );
  ids.emailBatch = batch!.id;
  ids.phoneNumberId = bench.account.phone_number_id;
}

beforeAll(async () => {
  bench = await startWhatsappBench({ businessName: 'Tenant A', onRoute: (route) => collected.push(route) });
  rt = bench.rt;
  const { ids: aIds } = await populate(bench.owner, bench.business, 'sales-a');
  await populateWhatsapp(aIds);
  a = { owner: bench.owner, business: bench.business, ids: aIds };

  const bOwner = await signUp(rt.app!, rt.mailer);
  const bBusiness = await createBusiness(rt.app!, bOwner, 'Tenant B');
  const { ids: bIds, apiKey, customKey } = await populate(bOwner, bBusiness, 'sales-b');
  // B has no number connected; a WhatsApp conversation of its own carries A's media id.
  bIds.waConversation = (
    await startConversation(rt.database.db, {
      businessId: bBusiness.id,
      channel: 'whatsapp',
      initiatorId: bIds.customer,
      title: 'B on WhatsApp',
    })
  ).id;
  bIds.template = 'spring_sale';
  b = { owner: bOwner, business: bBusiness, ids: bIds, apiKey, customKey };

  routes = collected.flatMap((options) =>
    (Array.isArray(options.method) ? options.method : [options.method]).map((method) => ({
      method: method.toUpperCase(),
      url: options.url,
      options,
    })),
  );
}, 600_000); // two businesses with one of everything: minutes on a loaded machine

afterAll(() => bench?.close());

const businessRoutes = () => routes.filter((r) => configOf(r).business && !configOf(r).public);

describe('tenancy route matrix', () => {
  it('knows every signed-in route: business-scoped, or allow-listed with a reason', () => {
    const signedIn = routes.filter((r) => !configOf(r).public);
    const unscoped = signedIn.filter((r) => !configOf(r).business).map(listedKey);
    const unexplained = unscoped.filter((key) => !(key in NOT_BUSINESS_SCOPED));
    expect(
      unexplained,
      'These signed-in routes are not business-scoped (config.business). Make them business-scoped, ' +
        'or add them to NOT_BUSINESS_SCOPED in tenancy-matrix.test.ts with the reason they need no tenant.',
    ).toEqual([]);
    // No stale entries: each allow-listed route still exists and is still unscoped.
    expect(Object.keys(NOT_BUSINESS_SCOPED).filter((key) => !unscoped.includes(key))).toEqual([]);
    expect(Object.keys(PATH_PARAMS).filter((url) => !routes.some((r) => r.url === url))).toEqual([]);
    expect(Object.keys(INPUTS).filter((key) => !routes.some((r) => keyOf(r) === key))).toEqual([]);
    // The matrix is not empty by accident.
    expect(businessRoutes().length).toBeGreaterThan(40);
  });

  it('can fill every business-scoped route: its path ids, its body, the ids inside its body', () => {
    const problems: string[] = [];
    for (const route of businessRoutes()) {
      const key = keyOf(route);
      const missing = pathParams(route.url).filter((p) => !PATH_PARAMS[route.url]?.[p]);
      if (missing.length > 0) {
        problems.push(
          `${key}: add '${route.url}' to PATH_PARAMS with the id kind of :${missing.join(', :')} ` +
            '(add the kind to Ids and create one such object in populate() if it is new)',
        );
      }
      const schema = route.options.schema as { body?: unknown; querystring?: unknown } | undefined;
      const takesBody = schema?.body !== undefined || (schema as { consumes?: string[] })?.consumes;
      if (takesBody && pathParams(route.url).length + idFields(schema?.body).length > 0 && !INPUTS[key]) {
        problems.push(`${key}: add a valid body to INPUTS so that foreign ids reach the handler`);
      }
      const ids = [
        ...idFields(schema?.body),
        ...(QUERY_FILTER_IDS[`GET ${route.url}`] ? [] : idFields(schema?.querystring)),
      ];
      if (ids.length > 0 && !INPUTS[listedKey(route)]?.idsInBody) {
        problems.push(`${key}: takes ${ids.join(', ')}; add it to INPUTS with idsInBody and A's ids`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("answers 403 or 404 to B's owner and B's API key with A's ids or A's code, and leaves A as it was", async () => {
    const failures: string[] = [];
    const expectDenied = (label: string, status: number, body: string, allowed = [403, 404]) => {
      if (!allowed.includes(status)) failures.push(`${label} → ${status} ${body.slice(0, 200)}`);
    };
    const bOwner = as(b.owner, b.business);
    const bOwnerInA = as(b.owner, a.business);
    const bKey = { authorization: `Api-Key ${b.apiKey}` };
    const bKeyInA = { ...bKey, 'x-business-code': a.business.unique_code };
    const bCustom = { authorization: `Api-Key ${b.customKey}` };
    const bCustomInA = { ...bCustom, 'x-business-code': a.business.unique_code };
    let calls = 0;
    // A as it was: read once, then after each write route (a route that changed it becomes the new
    // baseline, so the next route is judged on its own).
    let baseline = await stateOfA();
    for (const route of businessRoutes()) {
      const key = keyOf(route);
      if (pathParams(route.url).some((p) => !PATH_PARAMS[route.url]?.[p])) continue; // reported above
      const entry = INPUTS[route.method === 'HEAD' ? `GET ${route.url}` : key];
      const writes = !['GET', 'HEAD'].includes(route.method);
      const foreignUrl = fill(route, a.ids);
      const foreignInput = entry?.input(a.ids);
      const attempts: [string, string, Caller, Input | undefined][] = [
        ["B's owner, A's code", foreignUrl, bOwnerInA, foreignInput],
        ["B's API key, A's code", foreignUrl, bKeyInA, foreignInput],
        ["B's custom-role key, A's code", foreignUrl, bCustomInA, foreignInput],
      ];
      if (pathParams(route.url).length > 0) {
        attempts.push(["B's owner, A's ids", foreignUrl, bOwner, foreignInput]);
        attempts.push(["B's API key, A's ids", foreignUrl, bKey, foreignInput]);
        attempts.push(["B's custom-role key, A's ids", foreignUrl, bCustom, foreignInput]);
      }
      for (const [who, url, headers, input] of attempts) {
        const res = await call(route, url, headers, input, a.ids);
        calls += 1;
        expectDenied(`${key} (${who}: ${url})`, res.status, res.body);
      }
      if (entry?.idsInBody) {
        // B's own path (or none), A's ids inside the body: refused as invalid or not found.
        const res = await call(route, fill(route, b.ids), bOwner, entry.input(a.ids), a.ids);
        calls += 1;
        expectDenied(
          `${key} (B's owner, B's path, A's ids in the body)`,
          res.status,
          res.body,
          [400, 403, 404, 409],
        );
      }
      if (writes) {
        const after = await stateOfA();
        for (const [url, value] of Object.entries(baseline)) {
          if (JSON.stringify(after[url]) !== JSON.stringify(value))
            failures.push(`${key} changed A's ${url}`);
        }
        baseline = after;
      }
    }
    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(100);
  }, 600_000); // every write route reads A afterwards: minutes on a loaded machine

  it("serves A's owner the same reads, so the ids above are real", async () => {
    const failures: string[] = [];
    for (const route of businessRoutes()) {
      if (!['GET', 'HEAD'].includes(route.method) || pathParams(route.url).length === 0) continue;
      const url = fill(route, a.ids);
      const res = await call(route, url, as(a.owner, a.business), undefined, a.ids);
      if (res.status !== 200)
        failures.push(`${keyOf(route)} (${url}) → ${res.status} ${res.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });
});
