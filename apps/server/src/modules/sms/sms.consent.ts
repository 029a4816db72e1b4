// A number's SMS consent as its owner says it by text: STOP (and Twilio's other opt-out words)
// suppresses the number for the business's SMS; START resubscribes it (lifting only an
// unsubscribe, never a manual block). Twilio's 21610 ("replied STOP") at send time means the same.
import type { Queryable } from '../auth/auth.repository';
import { findSuppression, suppress, unsuppress } from '../suppressions/suppressions.service';

export async function optOutNumber(
  db: Queryable,
  input: { businessId: number; number: string; detail: string; sendId?: string | null },
): Promise<void> {
  const current = await findSuppression(db, input.businessId, 'sms', input.number);
  // A graver reason already there (manual) stays.
  if (current && current.reason !== 'unsubscribed') return;
  await suppress(db, {
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
  return unsuppress(db, {
    businessId: input.businessId,
    channel: 'sms',
    address: input.number,
    reasons: ['unsubscribed'],
  });
}
