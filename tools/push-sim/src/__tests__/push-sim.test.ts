// The simulator decrypts what the maintained web-push library encrypts, and refuses bad VAPID.
import { afterAll, beforeAll, expect, it } from 'vitest';
import webpush from 'web-push';
import { startPushSim, type PushSim } from '../index';

let sim: PushSim;
beforeAll(async () => {
  sim = await startPushSim();
});
afterAll(() => sim.close());

const vapid = webpush.generateVAPIDKeys();
/** web-push builds the request (its own sender speaks https only); fetch carries it. */
async function send(subscription: webpush.PushSubscription, payload: string, keys = vapid) {
  const details = webpush.generateRequestDetails(subscription, payload, {
    vapidDetails: { subject: 'mailto:ops@example.test', ...keys },
    contentEncoding: 'aes128gcm',
    TTL: 60,
  });
  const res = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body,
  });
  return res.status;
}

it('decrypts an aes128gcm push signed with VAPID', async () => {
  const subscription = sim.subscribe();
  const status = await send(subscription, JSON.stringify({ hello: 'wörld' }));
  expect(sim.refused).toEqual([]);
  expect(status).toBe(201);
  const push = await sim.next(subscription.endpoint);
  expect(JSON.parse(push.text)).toEqual({ hello: 'wörld' });
  expect(push.vapid).toMatchObject({
    sub: 'mailto:ops@example.test',
    aud: sim.url,
    publicKey: vapid.publicKey,
  });
  expect(push.headers.ttl).toBe('60');
});

it('answers 410 for an expired subscription and 400 for a wrong key', async () => {
  const subscription = sim.subscribe();
  const other = sim.subscribe();
  // Encrypted for another subscription's keys: undecryptable here.
  const wrong = { endpoint: subscription.endpoint, keys: other.keys };
  expect(await send(wrong, 'x')).toBe(400);
  expect(sim.refused.at(-1)?.reason).toMatch(/unable to authenticate|auth/i);
  sim.expire(subscription.endpoint);
  expect(await send(subscription, 'x')).toBe(410);
});
