// The public chat: what a visitor on a widget or the hosted group page may do. A visitor is a
// customer record plus a signed token; they reach only their own conversations.
import { createHmac } from 'node:crypto';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type {
  TConversation,
  TPublicChatInfo,
  TPublicMessage,
  TUploadResult,
  TVisitor,
  TVisitorSession,
} from '@titan/contracts';
import {
  DEFAULT_WIDGET_LOCALE,
  FILE_TOO_LARGE_MESSAGE,
  matchWidgetLocale,
  type ZUpdateVisitorRequest,
  OWN_CHANNEL_FILE_LIMIT_BYTES,
  type ZCreateVisitorRequest,
  type ZPublicSendMessageRequest,
} from '@titan/contracts';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { safeEqual, type SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import { phoneForStorage } from '../../platform/phone-numbers';
import type { RateLimiter } from '../../platform/rate-limiter';
import type { Storage } from '../../platform/storage';
import { type BusinessRow, findBusinessByCode, findBusinessById, listMembers } from '../business';
import {
  availabilityAt,
  type ChatGroupRow,
  findChatGroupMemberIds,
  findGroup,
  findGroupBySlug,
} from '../chat-groups';
import type { Clock } from '../../platform/clock';
import { businessScope } from '../../platform/inbox-scope';
import { presenceOf } from '../presence';
import * as inbox from '../conversations';
import { storeUpload, takeVisitorUploadAllowance } from '../files';
import { adoptSuppressions } from '../consent';
import * as directory from '../directory';
import * as repo from './public-chat.repository';
import { toPublicConversation, toPublicMessage } from '../conversations';
import {
  VISITOR_SESSION_ENDED,
  verifyVisitor,
  type VisitorClaims,
  type VisitorTokens,
} from './visitor-tokens';

export type PublicChatDeps = {
  db: Db;
  storage: Storage;
  limiter: RateLimiter;
  visitorTokens: VisitorTokens;
  secrets: SecretBox;
  config: Pick<Config, 'PUBLIC_URL' | 'VISITOR_UPLOADS_DAILY_MB' | 'VISITOR_UPLOADS_DAILY_FILES'>;
  /** "Now" for the group's business hours (the runtime's clock). */
  clock?: Clock;
};

/**
 * Who is calling. `origin` is the Origin header as sent: null only when there was none; the
 * string "null" (sandboxed iframes, file:// pages) is an opaque origin, foreign to every list.
 */
export type Caller = { ip: string; origin: string | null };

/** The channel the public chat serves: visitors never reach WhatsApp conversations. */
const PUBLIC_CHANNEL = 'titan_message';

/** Verified widget identities live apart from WhatsApp contacts (`wa:<wa_id>`) and any other kind. */
export function widgetExternalId(userId: string): string {
  return `widget:${userId}`;
}

export const PUBLIC_CHAT_ERRORS = {
  unavailable: 'This chat is not available.',
  originRefused: 'This website is not allowed to use this chat.',
  identityFailed: 'We could not verify who you are. Please reload the page.',
  tooManyConversations:
    'You have started many conversations recently. Please continue in an existing one or try again later.',
  tooManyMessages: 'You are sending messages too quickly. Please wait a moment and try again.',
  required: 'This field is required.',
  notYours: 'Not found.',
  fileNotYours: 'Upload the file to this conversation first.',
  uploadQuota:
    'This chat cannot take more files today. Please describe what you wanted to send in a message, or try again tomorrow.',
} as const;

const HOUR = 3600;

async function liveBusiness(db: Db, code: string): Promise<BusinessRow> {
  const business = await findBusinessByCode(db, code);
  if (!business) throw new AppError('not_found', PUBLIC_CHAT_ERRORS.unavailable);
  return business;
}

async function liveGroup(db: Db, businessId: number, slug: string): Promise<ChatGroupRow> {
  const group = await findGroupBySlug(db, businessId, slug);
  if (!group) throw new AppError('not_found', PUBLIC_CHAT_ERRORS.unavailable);
  return group;
}

/**
 * Browsers send Origin on cross-site calls; Titan's own pages (the widget frame, the hosted
 * page) are always allowed, other sites only when listed by the business or the group.
 */
export function assertOriginAllowed(
  deps: Pick<PublicChatDeps, 'config'>,
  business: BusinessRow,
  group: ChatGroupRow | null,
  origin: string | null,
): void {
  if (origin === null || origin === new URL(deps.config.PUBLIC_URL).origin) return;
  const allowed = [...business.widgetAllowedOrigins, ...(group?.allowedOrigins ?? [])];
  if (allowed.length > 0 && !allowed.includes(origin.toLowerCase())) {
    throw new AppError('forbidden', PUBLIC_CHAT_ERRORS.originRefused);
  }
}

export async function chatInfo(
  deps: PublicChatDeps,
  code: string,
  slug: string | null,
  caller: Caller,
): Promise<TPublicChatInfo> {
  const business = await liveBusiness(deps.db, code);
  const group = slug ? await liveGroup(deps.db, business.id, slug) : null;
  assertOriginAllowed(deps, business, group, caller.origin);
  // Outside the group's business hours nobody answers, whoever is signed in.
  const availability = group
    ? availabilityAt(group, (deps.clock ?? { now: () => new Date() }).now())
    : { open: true, reopens_at: null, away_message: '' };
  return {
    locale: matchWidgetLocale(group?.locale) ?? DEFAULT_WIDGET_LOCALE,
    strings: compileStrings(group?.strings ?? {}),
    staff_online: availability.open && (await staffOnline(deps.db, business.id, group)),
    availability,
    business: { name: business.name, logo_url: null },
    group: group
      ? {
          name: group.name,
          slug: group.slug,
          greeting: group.greeting,
          color: group.color,
          launcher_position: group.launcherPosition,
          visitor_form: group.visitorForm as NonNullable<TPublicChatInfo['group']>['visitor_form'],
        }
      : null,
    identity_verification: business.widgetIdentitySecret !== null,
  };
}

/**
 * The group's overrides compiled for the widget's ICU runtime (@lingui/core carries no parser): plain
 * text stays a string. Saved overrides were checked by contracts; one that no longer compiles (a
 * catalogue change) is left out, so the widget shows its own text.
 */
export function compileStrings(
  strings: Record<string, Record<string, string>>,
): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [locale, texts] of Object.entries(strings)) {
    const compiled: Record<string, unknown> = {};
    for (const [key, text] of Object.entries(texts)) {
      try {
        const tokens = compileMessage(text);
        compiled[key] =
          Array.isArray(tokens) && tokens.length === 1 && typeof tokens[0] === 'string' ? tokens[0] : tokens;
      } catch {
        // left out: see above
      }
    }
    out[locale] = compiled;
  }
  return out;
}

/**
 * Whether anyone who answers this chat is online (presence, next-api.md "Team inbox"): the group's
 * members when it has any, else every member of the business. Away and offline members do not count.
 */
async function staffOnline(db: Db, businessId: number, group: ChatGroupRow | null): Promise<boolean> {
  let userIds = group ? await findChatGroupMemberIds(db, businessId, group.id) : [];
  if (userIds.length === 0) userIds = (await listMembers(db, businessId)).map((m) => m.userId);
  const presence = await presenceOf(db, userIds);
  return [...presence.values()].some((status) => status === 'online');
}

type FormField = { name: string; type: string; required: boolean; options?: string[] };

/** The group's visitor form, field by field: required answers present, and each of its type. */
export function checkVisitorForm(
  form: FormField[],
  answers: Record<string, unknown>,
): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  for (const field of form) {
    const value = answers[field.name];
    const empty = value === undefined || value === null || value === '' || value === false;
    if (empty) {
      if (field.required) problems[field.name] = [PUBLIC_CHAT_ERRORS.required];
      continue;
    }
    const text = typeof value === 'string' ? value.trim() : String(value);
    const wrong =
      (field.type === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) ||
      (field.type === 'number' && !Number.isFinite(Number(text))) ||
      (field.type === 'phone' && !/^\+?[0-9 ()-]{4,30}$/.test(text)) ||
      (field.type === 'checkbox' && typeof value !== 'boolean') ||
      (field.type === 'select' && !(field.options ?? []).includes(text));
    if (wrong) problems[field.name] = [FIELD_ERRORS[field.type] ?? 'Enter a valid value.'];
  }
  return problems;
}

const FIELD_ERRORS: Record<string, string> = {
  email: 'Enter a valid email address.',
  number: 'A valid number is required.',
  phone: 'Enter a valid phone number.',
  checkbox: 'Must be true or false.',
  select: 'Select one of the offered choices.',
};

/** The embedding site's HMAC-SHA256(user_id) under the business's widget secret. */
export function identityHash(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId).digest('hex');
}

export async function createVisitor(
  deps: PublicChatDeps,
  input: z.output<typeof ZCreateVisitorRequest>,
  caller: Caller,
): Promise<TVisitorSession> {
  const business = await liveBusiness(deps.db, input.business_code);
  const group = input.group_slug ? await liveGroup(deps.db, business.id, input.group_slug) : null;
  assertOriginAllowed(deps, business, group, caller.origin);
  await deps.limiter.hit({ key: `visitor:ip:${caller.ip}`, max: 30, windowSeconds: HOUR });

  const fields = { ...(input.fields ?? {}) };
  const problems = checkVisitorForm((group?.visitorForm ?? []) as FormField[], {
    ...fields,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.email !== undefined ? { email: input.email } : {}),
    ...(input.phone !== undefined ? { phone: input.phone } : {}),
  });
  if (Object.keys(problems).length > 0) throw AppError.fields(problems);
  // Stored in E.164 whatever way it was typed, so an inbound text from the number finds this record.
  const phone = phoneForStorage(input.phone, business.dialCode);

  const values = {
    businessId: business.id,
    name: input.name ?? null,
    email: input.email?.toLowerCase() ?? null,
    phone,
    fields,
    lastSeenAt: new Date(),
  };
  let customer: directory.CustomerRow;
  if (business.widgetIdentitySecret && (input.user_id || input.user_hash)) {
    // Only a site holding the secret can vouch for user_id; then earlier conversations follow.
    const secret = deps.secrets.open(business.widgetIdentitySecret);
    if (
      !input.user_id ||
      !input.user_hash ||
      !safeEqual(identityHash(secret, input.user_id), input.user_hash.toLowerCase())
    ) {
      throw new AppError('forbidden', PUBLIC_CHAT_ERRORS.identityFailed);
    }
    // With its `customer.created` event when new, in one transaction.
    const externalId = widgetExternalId(input.user_id);
    customer = await deps.db.transaction((tx) =>
      directory.upsertVerifiedCustomer(tx, { ...values, externalId }),
    );
  } else {
    // Unverified visitors always get a new record: typing someone's email reveals nothing.
    customer = await deps.db.transaction((tx) => directory.insertCustomer(tx, values));
  }
  // An address the business stopped mailing or texting keeps its consent on this record too.
  if (customer.email || customer.phone) await adoptSuppressions(deps.db, business.id, [customer.id]);
  return {
    customer: { id: customer.id, name: customer.name, email: customer.email },
    token: await deps.visitorTokens.sign(customer.id, business.id, customer.visitorTokenVersion),
  };
}

export async function visitorFromToken(
  deps: PublicChatDeps,
  token: string | undefined,
): Promise<VisitorClaims> {
  const claims = token ? await verifyVisitor(deps.db, deps.visitorTokens, token) : null;
  if (!claims) {
    throw new AppError('unauthorized', VISITOR_SESSION_ENDED);
  }
  return claims;
}

/** The visitor's own record: name and email (the widget asks for an email when nobody is online). */
export async function findVisitorSelf(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  caller: Caller,
): Promise<TVisitor> {
  await visitorBusiness(deps, visitor, caller);
  const row = await directory.findCustomerById(deps.db, visitor.businessId, visitor.customerId);
  if (!row) throw new AppError('unauthorized', VISITOR_SESSION_ENDED);
  return { id: row.id, name: row.name, email: row.email };
}

/**
 * The address a visitor leaves while nobody is online, stored on their customer record so the
 * conversation can go on by email; suppressions of that address are adopted as on creation.
 */
export async function updateVisitorSelf(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  input: z.output<typeof ZUpdateVisitorRequest>,
  caller: Caller,
): Promise<TVisitor> {
  await visitorBusiness(deps, visitor, caller);
  await deps.limiter.hit({ key: `visitor-email:${visitor.customerId}`, max: 10, windowSeconds: HOUR });
  await directory.updateVisitor(deps.db, visitor.businessId, visitor.customerId, {
    email: input.email.toLowerCase(),
  });
  await adoptSuppressions(deps.db, visitor.businessId, [visitor.customerId]);
  return findVisitorSelf(deps, visitor, caller);
}

async function visitorBusiness(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  caller: Caller,
  group: ChatGroupRow | null = null,
) {
  const business = await findBusinessById(deps.db, visitor.businessId);
  if (!business) throw new AppError('unauthorized', PUBLIC_CHAT_ERRORS.unavailable);
  assertOriginAllowed(deps, business, group, caller.origin);
  return business;
}

export async function findVisitorConversations(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  caller: Caller,
): Promise<TConversation[]> {
  await visitorBusiness(deps, visitor, caller);
  const ids = await repo.listCustomerConversationIds(
    deps.db,
    visitor.businessId,
    visitor.customerId,
    PUBLIC_CHANNEL,
    50,
  );
  const scope = businessScope(visitor.businessId);
  const found = await Promise.all(ids.map((id) => inbox.findConversationView(deps.db, scope, id)));
  return found.map(toPublicConversation);
}

/** A public-chat conversation of this visitor, or 404 exactly as for one that does not exist. */
export async function ownConversation(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  id: number,
): Promise<TConversation> {
  const conversation = await inbox
    .findConversationView(deps.db, businessScope(visitor.businessId), id)
    .catch(() => null);
  if (
    !conversation ||
    conversation.initiator?.id !== visitor.customerId ||
    conversation.channel !== PUBLIC_CHANNEL
  )
    throw AppError.notFound(PUBLIC_CHAT_ERRORS.notYours);
  return conversation;
}

export async function startVisitorConversation(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  input: { group_slug?: string; title?: string },
  caller: Caller,
): Promise<TConversation> {
  const business = await findBusinessById(deps.db, visitor.businessId);
  if (!business) throw new AppError('unauthorized', PUBLIC_CHAT_ERRORS.unavailable);
  const group = input.group_slug ? await liveGroup(deps.db, business.id, input.group_slug) : null;
  assertOriginAllowed(deps, business, group, caller.origin);
  await limited(deps, PUBLIC_CHAT_ERRORS.tooManyConversations, [
    { key: `conv:visitor:${visitor.customerId}`, max: 10, windowSeconds: HOUR },
    { key: `conv:ip:${caller.ip}`, max: 30, windowSeconds: HOUR },
  ]);
  const started = await inbox.startConversation(deps.db, {
    businessId: business.id,
    channel: PUBLIC_CHANNEL,
    initiatorId: visitor.customerId,
    chatGroupId: group?.id ?? null,
    title: input.title?.trim() || (group ? `Chat with ${group.name}` : `Chat with ${business.name}`),
  });
  return toPublicConversation(started);
}

export async function findVisitorMessages(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  conversationId: number,
  query: { limit: number; before?: string },
  caller: Caller,
): Promise<TPublicMessage[]> {
  const conversation = await ownConversation(deps, visitor, conversationId);
  await visitorBusiness(deps, visitor, caller, await groupOf(deps, visitor.businessId, conversation));
  const messages = await inbox.findMessages(deps, businessScope(visitor.businessId), conversationId, query);
  return messages.map(toPublicMessage);
}

export async function sendVisitorMessage(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  conversationId: number,
  message: z.output<typeof ZPublicSendMessageRequest>,
  caller: Caller,
): Promise<TPublicMessage> {
  const conversation = await ownConversation(deps, visitor, conversationId);
  await visitorBusiness(deps, visitor, caller, await groupOf(deps, visitor.businessId, conversation));
  await limited(deps, PUBLIC_CHAT_ERRORS.tooManyMessages, [
    { key: `msg:visitor:${visitor.customerId}`, max: 30, windowSeconds: 60 },
    { key: `msg:ip:${caller.ip}`, max: 120, windowSeconds: 60 },
  ]);
  if (
    message.message_type === 'file' &&
    !message.content.startsWith(`public/public_chat_media/${visitor.businessId}/${conversationId}/`)
  ) {
    throw AppError.fields({ content: [PUBLIC_CHAT_ERRORS.fileNotYours] });
  }
  const sent = await inbox.receiveCustomerMessage(deps, {
    businessId: visitor.businessId,
    conversationId,
    customerId: visitor.customerId,
    message,
  });
  return toPublicMessage(sent);
}

export async function visitorUpload(
  deps: PublicChatDeps,
  visitor: VisitorClaims,
  conversationId: number,
  file: { fileName: string; bytes: Buffer },
  caller: Caller,
): Promise<TUploadResult> {
  const conversation = await ownConversation(deps, visitor, conversationId);
  await visitorBusiness(deps, visitor, caller, await groupOf(deps, visitor.businessId, conversation));
  await limited(deps, PUBLIC_CHAT_ERRORS.tooManyMessages, [
    { key: `upload:visitor:${visitor.customerId}`, max: 20, windowSeconds: HOUR },
  ]);
  if (file.bytes.length > OWN_CHANNEL_FILE_LIMIT_BYTES) {
    throw new AppError('payload_too_large', FILE_TOO_LARGE_MESSAGE, { file: [FILE_TOO_LARGE_MESSAGE] });
  }
  // Every visitor of a business shares one daily allowance, so no number of visitors (or IPs)
  // grows its storage without bound. Checked last: a refused file counts nothing.
  if (file.bytes.length > 0) {
    const allowed = await takeVisitorUploadAllowance(deps.db, visitor.businessId, file.bytes.length, {
      maxFiles: deps.config.VISITOR_UPLOADS_DAILY_FILES,
      maxBytes: deps.config.VISITOR_UPLOADS_DAILY_MB * 1024 * 1024,
    });
    if (!allowed) {
      throw new AppError('rate_limited', PUBLIC_CHAT_ERRORS.uploadQuota, null, {
        'retry-after': String(secondsToUtcMidnight()),
      });
    }
  }
  const folder = `public/public_chat_media/${visitor.businessId}/${conversationId}`;
  return storeUpload(deps, visitor.businessId, folder, file, OWN_CHANNEL_FILE_LIMIT_BYTES);
}

/** Daily allowances start over at midnight UTC. */
export function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

async function groupOf(deps: PublicChatDeps, businessId: number, conversation: TConversation) {
  return conversation.assigned_chat_group
    ? findGroup(deps.db, businessId, conversation.assigned_chat_group.id)
    : null;
}

/** Rate limits with the visitor-facing message of this action. */
async function limited(deps: PublicChatDeps, message: string, limits: Parameters<RateLimiter['hit']>) {
  try {
    await deps.limiter.hit(...limits);
  } catch (err) {
    if (err instanceof AppError && err.code === 'rate_limited')
      throw new AppError('rate_limited', message, null, err.headers);
    throw err;
  }
}
