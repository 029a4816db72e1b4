// Private notes (issue 29, next-api.md "Team inbox"): a staff member writes in the conversation for
// the team alone. A note is a message of type `note` in the conversation's own table, written
// through this module's repository; no send is recorded for it, so no channel adapter ever carries
// it, and the visitors' reads and realtime feed leave notes out (public-view.isInternalMessage).
import type { TMessage, TNoteRequest } from '@titan/contracts';
import { AppError } from '../../platform/errors';
import * as repo from './conversations.repository';
import { findConversation, toMessages, type InboxDeps, type InboxScope } from './conversations.service';

export const NOTE_ERRORS = {
  unknownMention: 'Mention members of this business only.',
} as const;

/** `@[Name](member:<id>)`: how the composer writes a mention of a member. */
const MENTION = /@\[([^\]\n]{1,200})\]\(member:(\d{1,18})\)/g;

/** The member ids a note mentions, each once, in the order they first appear. */
export function mentionedIds(content: string): number[] {
  const ids = [...content.matchAll(MENTION)].map((m) => Number(m[2]));
  return [...new Set(ids)];
}

/**
 * Writes a note by `userId` in a conversation the scope may see. Every mention must name a member
 * of the business (else 404 naming `content`, nothing written); the mentioned ids are kept in the
 * note's meta_data (`mentions`) for the alerts to come.
 */
export async function addNote(
  deps: InboxDeps,
  scope: InboxScope,
  userId: number | null,
  conversationId: number,
  input: TNoteRequest,
): Promise<TMessage> {
  // 404 for a conversation the caller may not see, as every inbox route.
  await findConversation(deps.db, scope, conversationId);
  const mentions = mentionedIds(input.content);
  const row = await deps.db.transaction(async (tx) => {
    const [conversation] = await repo.lockVisibleConversations(tx, scope, [conversationId]);
    if (!conversation) throw AppError.notFound();
    for (const id of mentions) {
      if (!(await repo.findMember(tx, scope.businessId, id))) {
        throw new AppError('not_found', NOTE_ERRORS.unknownMention, {
          content: [NOTE_ERRORS.unknownMention],
        });
      }
    }
    return repo.insertInternalMessage(tx, conversation, {
      messageType: 'note',
      senderType: 'staff',
      senderId: userId,
      content: input.content,
      metaData: { mentions },
    });
  });
  return (await toMessages(deps, scope.businessId, [row]))[0]!;
}
