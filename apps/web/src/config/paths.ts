// Paths of the app's screens (spec section 2), so links and redirects never spell them twice.
// Shared by the app shell and every feature.
import type { TEventLogChannel } from '@titan/contracts';

export const DASHBOARD_PATH = '/engage';
export const LOGIN_PATH = '/login';
export const SIGNUP_PATH = '/signup';
export const FORGOT_PASSWORD_PATH = '/forgot-password';
export const AUTH_FLOW_PATH = '/auth-flow';
export const REGISTER_BUSINESS_PATH = '/register-business';
export const JOIN_BUSINESS_PATH = '/join-existing-business';
export const MESSAGES_PATH = '/messages';
export const AGENTS_PATH = '/engage/agent';
/** Create and edit share one screen (spec section 2). */
export const NEW_AGENT_PATH = `${AGENTS_PATH}/create`;
export function agentPath(id: number): string {
  return `${AGENTS_PATH}/${id}`;
}
export const TEMPLATES_PATH = '/engage/templates';
export const AI_TEMPLATE_PATH = '/engage/ai-template';
/** The Email tab of the templates area, a new template, and one template's editor. */
export const EMAIL_TEMPLATES_PATH = `${TEMPLATES_PATH}/email`;
export const NEW_EMAIL_TEMPLATE_PATH = `${EMAIL_TEMPLATES_PATH}/new`;
/** The business's brand for mail and its saved blocks (issue 31). */
export const EMAIL_BRAND_PATH = `${EMAIL_TEMPLATES_PATH}/brand`;
/** A new template that starts from the brand's header, button and footer. */
export const NEW_EMAIL_TEMPLATE_FROM_BRAND_PATH = `${NEW_EMAIL_TEMPLATE_PATH}?from=brand`;
export function emailTemplatePath(id: number): string {
  return `${EMAIL_TEMPLATES_PATH}/${id}`;
}
export const EVENT_LOGS_PATH = '/engage/event-logs';
/** Campaigns (issue 31): the list, the composer (new or a draft), one campaign's results. */
export const CAMPAIGNS_PATH = '/engage/campaigns';
export const NEW_CAMPAIGN_PATH = `${CAMPAIGNS_PATH}/new`;
export const campaignPath = (id: string) => `${CAMPAIGNS_PATH}/${id}`;
export const editCampaignPath = (id: string) => `${CAMPAIGNS_PATH}/${id}/edit`;
/** The composer prefilled from "Send to…" on a list or a template. */
export function newCampaignPath(prefill: {
  listId?: number;
  templateId?: number;
  channel?: 'email' | 'sms' | 'whatsapp';
  /** An approved WhatsApp template, by its name and language (Meta's identity of it). */
  whatsappTemplate?: { name: string; language: string };
}): string {
  const params = new URLSearchParams();
  if (prefill.listId) params.set('list_id', String(prefill.listId));
  if (prefill.templateId) params.set('template_id', String(prefill.templateId));
  if (prefill.channel) params.set('channel', prefill.channel);
  if (prefill.whatsappTemplate) {
    params.set('wa_template', prefill.whatsappTemplate.name);
    params.set('wa_language', prefill.whatsappTemplate.language);
  }
  const query = params.toString();
  return query ? `${NEW_CAMPAIGN_PATH}?${query}` : NEW_CAMPAIGN_PATH;
}
/** Journeys (issue 32): the list, and the canvas editor of a new journey or one journey. */
export const JOURNEYS_PATH = '/engage/journeys';
export const NEW_JOURNEY_PATH = `${JOURNEYS_PATH}/new`;
export const journeyPath = (id: number) => `${JOURNEYS_PATH}/${id}`;
export const DIRECTORY_PATH = '/engage/directory';
/** Customer lists and segments, beside the directory. */
export const LISTS_PATH = `${DIRECTORY_PATH}/lists`;
export const listPath = (id: number) => `${LISTS_PATH}/${id}`;
/** The CSV import wizard (?id= follows one import). */
export const DIRECTORY_IMPORT_PATH = `${DIRECTORY_PATH}/import`;
export const SETTINGS_PATH = '/engage/settings';
/** Where a member of a business that requires 2FA sets it up before anything else. */
export const TWO_FACTOR_SETUP_PATH = '/two-factor-setup';
/** Public (no sign-in): how to publish a sending domain's DNS records. */
export const DNS_HELP_PATH = '/engage/dns-help';

/** The public rating page a resolved conversation's survey links to (issue 29): `/csat/:token`. */
export const CSAT_PATH = '/csat';

/** The public page behind the unsubscribe link of every email (spec section 2). */
export const UNSUBSCRIBE_PATH = '/engage/unsubscribe';
/** The public page behind the confirmation link of a QR form's double opt-in mail. */
export const CONFIRM_SUBSCRIPTION_PATH = '/engage/confirm';

/** The preference centre behind a business's mail (public; the token is the mail's unsubscribe token). */
export const PREFERENCES_PATH = '/p';
export const preferencesPath = (token: string) => `${PREFERENCES_PATH}/${encodeURIComponent(token)}`;
/** The page behind the link of a list's double opt-in mail (public). */
export const OPT_IN_CONFIRM_PATH = '/confirm';
export const optInConfirmPath = (token: string) => `${OPT_IN_CONFIRM_PATH}/${encodeURIComponent(token)}`;

/** The development outbox page (not in the spec): mail kept instead of sent, on the machine running Titan. */
export const DEV_OUTBOX_PATH = '/dev/outbox';

export function devOutboxPath(email?: string | null): string {
  return email ? `${DEV_OUTBOX_PATH}?${new URLSearchParams({ to: email }).toString()}` : DEV_OUTBOX_PATH;
}

/** Embed settings of the Titan Message widget (spec section 2); the trailing slash is the spec's. */
export const EMBED_SETTINGS_PATH = '/messages/settings/embed';

export const SETTINGS_TABS = [
  'business',
  'team',
  'roles',
  'chat-groups',
  'whatsapp',
  'sms',
  'email-domains',
  'inbox-addresses',
  'ai-model',
  'mcp-servers',
  'plugins',
  'api-keys',
  'profile',
  'security',
  'notifications',
  'audit-log',
  'webhooks',
  'qr-form',
  'billing',
  'labels',
  'canned-responses',
] as const;
export type TSettingsTab = (typeof SETTINGS_TABS)[number];

export function settingsPath(tab: TSettingsTab): string {
  return `${SETTINGS_PATH}/${tab}`;
}

/** The inbox with one conversation open. */
export function conversationPath(id: number): string {
  return `${MESSAGES_PATH}?conversation=${id}`;
}

/** The inbox with "New conversation" open for a customer. */
export function newConversationPath(customerId: number): string {
  return `${MESSAGES_PATH}?new_conversation=${customerId}`;
}

/** Each channel's segment under /engage/event-logs: the spec's single email is at emails/{trackingId}. */
export const EVENT_LOG_SEGMENTS = {
  email: 'emails',
  whatsapp: 'whatsapp',
  sms: 'sms',
} as const satisfies Record<TEventLogChannel, string>;

/** A channel's tab of the event logs. */
export function eventLogsPath(channel: TEventLogChannel): string {
  return `${EVENT_LOGS_PATH}/${EVENT_LOG_SEGMENTS[channel]}`;
}

/** One send's page (spec: /engage/event-logs/emails/{trackingId}, …/whatsapp/{trackingId}; SMS alike). */
export function eventLogPath(channel: TEventLogChannel, trackingId: string): string {
  return `${eventLogsPath(channel)}/${encodeURIComponent(trackingId)}`;
}

/** An agent's run log: its runs per channel (a channel's tab with ?channel=). */
export function agentRunsPath(agentId: number, channel?: string): string {
  const base = `${EVENT_LOGS_PATH}/agents/${agentId}`;
  return channel ? `${base}?${new URLSearchParams({ channel }).toString()}` : base;
}

/** One run of an agent on a channel. */
export function agentRunPath(agentId: number, channel: string, runId: string): string {
  return `${EVENT_LOGS_PATH}/agents/${agentId}/${encodeURIComponent(channel)}/${encodeURIComponent(runId)}`;
}

/** A visitor's page in the directory ({details} of spec section 2 is the visitor id). */
export function visitorPath(id: number): string {
  return `${DIRECTORY_PATH}/visitor/${id}`;
}

/** Embed settings of the business-wide widget ({businessSlug} is the business unique_code). */
export function businessEmbedPath(businessCode: string): string {
  return `${EMBED_SETTINGS_PATH}/b/${encodeURIComponent(businessCode)}/`;
}

export function groupEmbedPath(groupSlug: string): string {
  return `${EMBED_SETTINGS_PATH}/g/${encodeURIComponent(groupSlug)}/`;
}

/** The hosted full-page group chat. The server serves it, not this app: link with a plain <a href>. */
export function hostedChatPath(businessCode: string, groupSlug: string): string {
  return `/messages/chat/${encodeURIComponent(businessCode)}/g/${encodeURIComponent(groupSlug)}`;
}

export function resetPasswordPath(encodedEmail: string, key: string): string {
  return `${FORGOT_PASSWORD_PATH}/${encodeURIComponent(encodedEmail)}/${encodeURIComponent(key)}`;
}

export function invitationPath(token: string): string {
  return `/invite-user/join/${encodeURIComponent(token)}`;
}

/** C0 controls, DEL and C1 controls. */
function hasControlCharacter(value: string): boolean {
  return [...value].some(
    (c) => c.charCodeAt(0) <= 0x1f || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f),
  );
}

/**
 * A path inside this app that is safe to return to after signing in; anything else → null.
 * Browsers drop tabs and newlines from URLs and read `\` as `/`, so "/\t/evil.com" or "/\\evil.com"
 * would leave the app: the raw value may hold no whitespace, control character or backslash, and
 * its percent-decoded form no control character and no second leading slash ("/%09/", "/%2F/").
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || /[\s\\]/u.test(value) || hasControlCharacter(value)) return null;
  let decoded = value;
  // Decoded until stable (a few rounds at most), so double encoding hides nothing either.
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return null;
    }
    if (next === decoded) break;
    decoded = next;
  }
  // Decoded, a plain space may stay: a query can hold one (%20).
  if (/(?! )\s/u.test(decoded) || hasControlCharacter(decoded) || /^\/[/\\]/.test(decoded)) return null;
  return value;
}

/** /login or /signup, carrying where to return to and an email to prefill. */
export function authPath(
  base: typeof LOGIN_PATH | typeof SIGNUP_PATH,
  options: { next?: string | null; email?: string | null; mfa?: '1' } = {},
): string {
  const params = new URLSearchParams();
  const next = safeNextPath(options.next);
  if (next) params.set('next', next);
  if (options.email) params.set('email', options.email);
  if (options.mfa) params.set('mfa', options.mfa);
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** The public visitor form a QR code opens (no sign-in): /v/{businessCode}/{slug}. */
export const QR_FORM_PUBLIC_PATH = '/v/:businessCode/:slug';

/** The knowledge base (staff): articles and categories; one article's editor; a new one. */
export const KNOWLEDGE_PATH = '/engage/knowledge';
export const NEW_KNOWLEDGE_ARTICLE_PATH = `${KNOWLEDGE_PATH}/articles/new`;
export const KNOWLEDGE_IMPORT_PATH = `${KNOWLEDGE_PATH}/import`;
/** How the AI first responder answers: ratings, answered and handed-off counts, reasons. */
export const AI_REPORT_PATH = `${KNOWLEDGE_PATH}/ai-report`;
export function knowledgeArticlePath(id: number): string {
  return `${KNOWLEDGE_PATH}/articles/${id}`;
}

/** The public help centre of a business ({businessSlug} is the business unique_code). */
export const HELP_CENTRE_PATH = '/hc';
export function helpCentrePath(businessCode: string): string {
  return `${HELP_CENTRE_PATH}/${encodeURIComponent(businessCode)}`;
}
export function helpCentreArticlePath(businessCode: string, id: number, slug?: string): string {
  return `${helpCentrePath(businessCode)}/articles/${id}${slug ? `-${slug}` : ''}`;
}
