// The inbox's conversation as the API answers it, and the list filter's `assignee=me`: shared by the
// service, search and the realtime topics (a file of its own, so search need not import the service).
import type { TAssignee, TConversation, TConversationFilter } from '@titan/contracts';
import { AppError } from '../../platform/errors';
import { toChatGroup } from '../chat-groups';
import type * as repo from './conversations.repository';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toConversation(row: repo.EnrichedConversationRow): TConversation {
  const c = row.conversation;
  return {
    id: c.id,
    title: c.title,
    status: c.status,
    is_read: c.isRead,
    channel: c.channel,
    initiator: row.initiator,
    assigned_chat_group: row.group && toChatGroup(row.group),
    last_message_at: iso(c.lastMessageAt),
    created_at: c.createdAt.toISOString(),
    business_replied: c.businessReplied,
    engage_business_id: c.businessId,
    assignee: row.assignee && toAssignee(row.assignee),
    snoozed_until: c.status === 'snoozed' ? iso(c.snoozedUntil) : null,
    labels: row.labels,
    last_message_preview: row.lastMessagePreview,
    spam: c.spam,
    sla: row.sla,
  };
}

export const memberName = (m: { firstName: string; lastName: string; email: string }) =>
  `${m.firstName} ${m.lastName}`.trim() || m.email;

export const toAssignee = (m: repo.AssigneeRow): TAssignee => ({
  id: m.id,
  name: memberName(m),
  avatar_url: null,
});

export const NO_ME = 'An API key has no conversations of its own: name a member id.';

/** `assignee=me` as the caller's own id (an API key, which is no member, is told so). */
export function resolveMe<F extends TConversationFilter>(filter: F, viewerId: number | null): F {
  if (filter.assignee !== 'me') return filter;
  if (viewerId === null) throw AppError.fields({ assignee: [NO_ME] });
  return { ...filter, assignee: viewerId };
}
