// Labels on conversations (label_ids on PUT and bulk): the labels module keeps the links and says
// what changed; each conversation whose labels changed gets one activity line ("labelled"), in
// the caller's transaction, as assignment and status changes do (conversations.service.ts).
import type { TLabelRef } from '@titan/contracts';
import type { Queryable } from '../../db/client';
import { emitCustomerEvents } from '../journeys';
import { applyLabels } from '../labels';
import * as repo from './conversations.repository';

const names = (labels: TLabelRef[]) => labels.map((l) => l.name).join(', ');

/** What one activity line says: "Ann labelled this conversation Billing, VIP and removed Spam". */
export function labelledText(who: string, added: TLabelRef[], removed: TLabelRef[]): string {
  const parts: string[] = [];
  if (added.length > 0) parts.push(`labelled this conversation ${names(added)}`);
  if (removed.length > 0) parts.push(`removed the label${removed.length > 1 ? 's' : ''} ${names(removed)}`);
  return `${who} ${parts.join(' and ')}`;
}

/**
 * Puts `labelIds` on these conversations (already locked and checked visible by the caller):
 * `set` makes them the whole set, `add` adds them. A label not of the business is 404 naming
 * `label_ids`, thrown before anything is written, so the caller's transaction writes nothing.
 */
export async function labelConversations(
  tx: Queryable,
  businessId: number,
  rows: repo.ConversationRow[],
  labelIds: number[],
  mode: 'set' | 'add',
  actorId: number | null,
): Promise<void> {
  const changes = await applyLabels(
    tx,
    businessId,
    'conversation',
    rows.map((r) => r.id),
    labelIds,
    mode,
  );
  if (changes.length === 0) return;
  const [actorRow] = actorId === null ? [] : await repo.findStaffSenders(tx, businessId, [actorId]);
  const actor = actorRow
    ? { id: actorRow.id, name: `${actorRow.firstName} ${actorRow.lastName}`.trim() || actorRow.email }
    : null;
  const byId = new Map(rows.map((r) => [r.id, r]));
  // A label put on a conversation is an event of its customer for journeys.
  await emitCustomerEvents(
    tx,
    ...changes.flatMap((change) => {
      const customerId = byId.get(change.ownerId)!.initiatorId;
      return customerId === null
        ? []
        : change.added.map((l) => ({
            businessId,
            customerId,
            name: 'label.added' as const,
            properties: {
              label_id: l.id,
              label_name: l.name,
              on: 'conversation',
              conversation_id: change.ownerId,
            },
          }));
    }),
  );
  for (const change of changes) {
    await repo.insertInternalMessage(tx, byId.get(change.ownerId)!, {
      messageType: 'activity',
      senderType: 'system',
      senderId: actorId,
      content: labelledText(actor?.name ?? 'An API key', change.added, change.removed),
      metaData: { action: 'labelled', actor, added: change.added, removed: change.removed },
    });
  }
  // The callers' update of the rows (updated_at) is what announces their new labels on the feed.
}
