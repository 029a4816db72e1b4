// POST /api/msg/canned-responses/{id}/render/ {conversation_id}: a canned response filled in for a
// conversation (the composer's `/` picker inserts the text).
import { ZEnvelope, ZRenderedCanned, type TRenderedCanned } from '@titan/contracts';

import { CANNED_PATH } from '../../../lib/canned-responses';
import { protectedClient } from '../../../lib/protected-client';

export async function renderCanned(id: number, conversationId: number): Promise<TRenderedCanned> {
  const { data } = await protectedClient.post(`${CANNED_PATH}${id}/render/`, {
    conversation_id: conversationId,
  });
  return ZEnvelope(ZRenderedCanned).parse(data).result;
}
