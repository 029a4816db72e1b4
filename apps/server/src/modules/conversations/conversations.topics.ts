// The inbox's realtime topics: `conversations` (a business's list, filtered as the REST list is)
// and `messages` (one conversation's). Staff see what their inbox shows (agents: their chat groups
// and the shared pool); visitors see only the titan_message conversations they started, and
// messages in the public shape (display name and avatar of the sender only).
import type { TConversation, TConversationFilter, TMessage, TPermission } from '@titan/contracts';
import type { Change } from '../../platform/change-feed';
import {
  defineTopic,
  type AnyTopic,
  type RealtimeCaller,
  type SubscribeRequest,
} from '../../platform/realtime/realtime.topic';
import { type AuthCache, membershipPermissions, resolveSession } from '../auth';
import { findBusinessByCode, findMembershipAccess } from '../business';
import * as inbox from './conversations.service';
import { scopeFor } from '../../platform/inbox-scope';
import { isInternalMessage, toPublicConversation, toPublicMessage } from './public-view';

export type TopicDeps = inbox.InboxDeps & { authCache: AuthCache };

/**
 * The topics also ask whether a visitor's token still stands (public chat keeps the token
 * versions); the composition root hands that check in.
 */
export type ConversationTopicDeps = TopicDeps & {
  visitorStillValid: (caller: Extract<RealtimeCaller, { kind: 'visitor' }>) => Promise<boolean>;
};

type Shape = 'staff' | 'visitor';

type ConversationsScope = {
  businessId: number;
  shape: Shape;
  /** Agents: the chat groups whose conversations they may see (null = all). */
  groupIds: number[] | null;
  /** Visitors: only conversations this customer started. */
  initiatorId: number | null;
  filter: TConversationFilter;
};

type MessagesScope = { businessId: number; shape: Shape; conversationId: number };

const INBOX_PERMISSION: TPermission = 'inbox.use';

/** The business a change belongs to (a wamid names a message within its business only). */
const businessOf = (change: Change) => (change.business_id === null ? undefined : Number(change.business_id));

function visibleTo(groupIds: number[] | null, conversation: TConversation): boolean {
  const group = conversation.assigned_chat_group;
  return groupIds === null || group === null || groupIds.includes(group.id);
}

const loadConversation = async (deps: TopicDeps, id: string | number) => {
  const loaded = await inbox.loadChangedRow(deps, 'conversations', String(id));
  return loaded && { ...loaded, row: loaded.row as TConversation };
};

/** The staff caller's session stands; null when it does not (with the membership when a code was named). */
const staffSession = (
  deps: TopicDeps,
  caller: Extract<RealtimeCaller, { kind: 'staff' }>,
  code: string | null,
) => resolveSession(deps.db, deps.authCache, caller.sessionId, caller.userId, code, true);

export function conversationTopics(deps: ConversationTopicDeps): AnyTopic[] {
  const { db, visitorStillValid } = deps;

  const conversations = defineTopic<ConversationsScope, TConversation>({
    name: 'conversations',
    async authorize(caller, request: SubscribeRequest) {
      if (request.topic !== 'conversations') return 'denied';
      const asked = request.filter ?? {};
      if (caller.kind === 'visitor') {
        // Who owns a conversation is the team's business: visitors filter by neither.
        const { assignee: _a, assigned_chat_group: _g, ...filter } = asked;
        if (!(await visitorStillValid(caller))) return 'revoked';
        const business = await findBusinessByCode(db, request.business_code);
        if (business?.id !== caller.businessId) return 'denied';
        return {
          businessId: caller.businessId,
          shape: 'visitor',
          groupIds: null,
          initiatorId: caller.customerId,
          filter,
        };
      }
      const found = await staffSession(deps, caller, request.business_code);
      if (!found) return 'revoked';
      const membership = found.membership;
      if (!membership || !membershipPermissions(membership).has(INBOX_PERMISSION)) return 'denied';
      const { groupIds } = await scopeFor(
        db,
        membership.businessId,
        membership.role,
        caller.userId,
        membership,
      );
      // `assignee: "me"` is the caller, fixed for the subscription's life.
      const filter = inbox.resolveMe(asked, caller.userId);
      return { businessId: membership.businessId, shape: 'staff', groupIds, initiatorId: null, filter };
    },
    wants: (_scope, change) => change.table === 'conversations',
    load: async (change) => (await loadConversation(deps, change.id!))?.row ?? null,
    serialize: (row, shape) => JSON.stringify(shape === 'visitor' ? toPublicConversation(row) : row),
    match(scope, row, change) {
      // Rows outside an agent's groups are never sent, not even as "left the filter".
      if (!visibleTo(scope.groupIds, row)) return false;
      if (
        scope.initiatorId !== null &&
        (row.initiator?.id !== scope.initiatorId || row.channel !== 'titan_message')
      )
        return false;
      const matches = inbox.matchesFilter(row, scope.filter);
      // A row that left the filter is still announced (matches: false) so lists can drop it.
      if (!matches && change.op === 'INSERT') return false;
      return { matches };
    },
    old: (change) =>
      change.op === 'UPDATE' ? { last_message_at: change.old_last_message_at ?? null } : null,
  });

  const messages = defineTopic<MessagesScope, TMessage>({
    name: 'messages',
    async authorize(caller, request: SubscribeRequest) {
      if (request.topic !== 'messages') return 'denied';
      if (caller.kind === 'visitor') {
        // Visitors reach only the conversations they started, on the public chat channel.
        if (!(await visitorStillValid(caller))) return 'revoked';
        const loaded = await loadConversation(deps, request.conversation_id);
        if (
          !loaded ||
          loaded.businessId !== caller.businessId ||
          loaded.row.initiator?.id !== caller.customerId ||
          loaded.row.channel !== 'titan_message'
        ) {
          return 'denied';
        }
        return { businessId: caller.businessId, shape: 'visitor', conversationId: loaded.conversationId };
      }
      if (!(await staffSession(deps, caller, null))) return 'revoked';
      const loaded = await loadConversation(deps, request.conversation_id);
      const access = loaded ? await findMembershipAccess(db, loaded.businessId, caller.userId) : null;
      if (!loaded || !access || !membershipPermissions(access).has(INBOX_PERMISSION)) return 'denied';
      const { groupIds } = await scopeFor(db, loaded.businessId, access.role, caller.userId, access);
      if (!visibleTo(groupIds, loaded.row)) return 'denied';
      return { businessId: loaded.businessId, shape: 'staff', conversationId: loaded.conversationId };
    },
    wants: (scope, change) =>
      (change.table === 'messages' || change.table === 'wa_messages') &&
      Number(change.conversation_id) === scope.conversationId,
    load: async (change) =>
      ((await inbox.loadChangedRow(deps, change.table, change.id!, businessOf(change)))?.row as TMessage) ??
      null,
    // Visitors get messages with the public sender shape (display name and avatar only).
    serialize: (row, shape) => JSON.stringify(shape === 'visitor' ? toPublicMessage(row) : row),
    // Notes and activity lines are the team's: never in a visitor's feed.
    match: (scope, row) => (scope.shape === 'visitor' && isInternalMessage(row) ? false : {}),
    old: () => null,
    // Typing in this conversation (typing.ts says who may send it), named for this shape.
    typing: (scope, signal) =>
      signal.conversationId === scope.conversationId ? (signal.who[scope.shape] ?? null) : null,
  });

  return [conversations, messages];
}
