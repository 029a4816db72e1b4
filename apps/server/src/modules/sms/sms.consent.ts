// A number's SMS consent as its owner says it by text: STOP (and Twilio's other opt-out words)
// opts the number out of the business's SMS (suppressed; its customers `unsubscribed`); START
// opts it back in (lifting only an unsubscribe, never a manual block). Twilio's 21610 ("replied
// STOP") at send time means the same. The consent module keeps customers and suppressions in step.
import type { Queryable } from '../../db/client';
import { optIn, optOut } from '../consent';
import { findSuppression } from '../suppressions';

export async function optOutNumber(
  db: Queryable,
  input: { businessId: number; number: string; detail: string; sendId?: string | null },
): Promise<void> {
  const current = await findSuppression(db, input.businessId, 'sms', input.number);
  // A graver reason already there (a manual block) stays.
  if (current && current.reason !== 'unsubscribed') return;
  await optOut(db, {
    businessId: input.businessId,
    channel: 'sms',
    address: input.number,
    reason: 'unsubscribed',
    sendId: input.sendId ?? null,
    detail: input.detail,
  });
}

export async function optInNumber(
  db: Queryable,
  input: { businessId: number; number: string },
): Promise<boolean> {
  return optIn(db, {
    businessId: input.businessId,
    channel: 'sms',
    address: input.number,
    reasons: ['unsubscribed'],
  });
}
