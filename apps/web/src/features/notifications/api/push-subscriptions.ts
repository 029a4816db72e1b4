// GET/POST/DELETE /api/notifications/push-subscriptions/: the push setup (the server's public key),
// and this browser's subscription saved or removed. Called by lib/push.ts outside React Query.
import { ZEnvelope, ZPushSetup } from '@titan/contracts';

import { protectedClient } from '../../../lib/protected-client';

export const PUSH_SUBSCRIPTIONS_PATH = '/api/notifications/push-subscriptions/';

export async function getPushSetup() {
  const { data } = await protectedClient.get(PUSH_SUBSCRIPTIONS_PATH);
  return ZEnvelope(ZPushSetup).parse(data).result;
}

export async function savePushSubscription(subscription: PushSubscriptionJSON) {
  await protectedClient.post(PUSH_SUBSCRIPTIONS_PATH, subscription);
}

export async function deletePushSubscription(endpoint: string) {
  await protectedClient.delete(PUSH_SUBSCRIPTIONS_PATH, { data: { endpoint } });
}
