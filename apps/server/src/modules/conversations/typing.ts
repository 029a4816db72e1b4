// Typing indicators (next-api.md "Team inbox"): who may say they are typing in a conversation, and
// how they are named. Exactly those who may subscribe to the conversation's `messages` topic (its
// visitor on the own channel; staff who see it, agents within their groups) may send a signal, and
// only that topic's subscribers of the conversation hear it — never another business, never an
// agent outside the conversation's group.
import type { TTypingWho } from '@titan/contracts';
import type { AnyTopic, TypingSource } from '../../platform/realtime/realtime.topic';
import * as repo from './conversations.repository';
import * as inbox from './conversations.service';
import type { TopicDeps } from './conversations.topics';
import { toPublicSender } from './public-view';

const memberName = (m: { firstName: string; lastName: string; email: string }) =>
  `${m.firstName} ${m.lastName}`.trim() || m.email;

export function typingSource(deps: TopicDeps, topics: AnyTopic[]): TypingSource {
  const messages = topics.find((t) => t.name === 'messages');
  if (!messages) throw new Error('typing needs the messages topic');
  return async (caller, conversationId) => {
    const scope = await messages.authorize(caller, {
      type: 'subscribe',
      id: 'typing',
      topic: 'messages',
      conversation_id: conversationId,
    });
    if (typeof scope !== 'object') return null;
    const { businessId } = scope;
    if (caller.kind === 'visitor') {
      const loaded = await inbox.loadChangedRow(deps, 'conversations', String(conversationId));
      const name = (loaded?.row as { initiator?: { name: string | null } | null })?.initiator?.name ?? '';
      const who: TTypingWho = { type: 'customer', id: caller.customerId, name: name || 'Visitor' };
      return { businessId, conversationId, who: { staff: who, visitor: who } };
    }
    const [member] = await repo.findStaffSenders(deps.db, businessId, [caller.userId]);
    if (!member) return null;
    const name = memberName(member);
    // Visitors see the name messages show them (never an email), staff the member.
    const shown = toPublicSender({ id: member.id, name, email: member.email, role: null, avatar_url: null });
    return {
      businessId,
      conversationId,
      who: {
        staff: { type: 'staff', id: member.id, name } satisfies TTypingWho,
        visitor: { type: 'staff', name: shown?.name ?? '' } satisfies TTypingWho,
      },
    };
  };
}
