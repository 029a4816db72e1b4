// Web Push (RFC 8030, payloads encrypted per RFC 8291 aes128gcm, VAPID per RFC 8292): the
// maintained `web-push` library builds each request — keys, encryption, VAPID JWT — and Titan sends
// it through its outbound SSRF gate (platform/safe-fetch: https and public addresses only when
// guarded, checked again at connect time). web-push's own sender takes only a node https.Agent,
// which the gate (an undici dispatcher) is not, so `generateRequestDetails` + the gate's fetch is
// the way both hold. The VAPID key pair is made on first use and stored with the private key
// sealed (platform/crypto's secrets box), one pair for the deployment.
import webpush from 'web-push';
import type { TPushPayload } from '@titan/contracts';
import { findBusinessById } from '../business';
import { safeFetch } from '../../platform/safe-fetch';
import * as repo from './notifications.repository';
import type { NotificationDeps } from './notifications.service';

export type VapidKeys = { publicKey: string; privateKey: string };

const cached = new WeakMap<object, Promise<VapidKeys>>();

/** The deployment's VAPID keys, made and stored (sealed) the first time they are needed. */
export function vapidKeys(deps: Pick<NotificationDeps, 'db' | 'secrets'>): Promise<VapidKeys> {
  let keys = cached.get(deps.db);
  if (!keys) {
    keys = (async () => {
      let row = await repo.findWebPushKeys(deps.db);
      if (!row) {
        const made = webpush.generateVAPIDKeys();
        await repo.insertWebPushKeys(deps.db, made.publicKey, deps.secrets.seal(made.privateKey));
        row = await repo.findWebPushKeys(deps.db);
      }
      return { publicKey: row!.publicKey, privateKey: deps.secrets.open(row!.privateKeySealed) };
    })();
    keys.catch(() => cached.delete(deps.db));
    cached.set(deps.db, keys);
  }
  return keys;
}

/** VAPID `sub`: who runs this server, as push services ask (mailto: of MAIL_FROM). */
export function vapidSubject(config: NotificationDeps['config']): string {
  if (config.PUBLIC_URL.startsWith('https://')) return config.PUBLIC_URL;
  const address = /<([^>]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();
  return `mailto:${address}`;
}

export type PushTarget = { id: number; endpoint: string; p256dh: string; auth: string };

/**
 * Sends one push to one subscription. 201/202 delivered; 404/410 the subscription is gone (removed);
 * anything else is logged. Returns the push service's status (0: not sent).
 */
export async function sendPush(
  deps: NotificationDeps,
  businessId: number,
  target: PushTarget,
  payload: TPushPayload,
): Promise<number> {
  const keys = await vapidKeys(deps);
  const details = webpush.generateRequestDetails(
    { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: {
        subject: vapidSubject(deps.config),
        publicKey: keys.publicKey,
        privateKey: keys.privateKey,
      },
      TTL: 24 * 60 * 60,
      contentEncoding: 'aes128gcm',
      urgency: 'high',
      topic: `n${payload.id}`.slice(0, 32),
    },
  );
  const send = deps.fetch ?? safeFetch(deps.outbound);
  try {
    const res = await send(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body ?? undefined,
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    if (res.status === 404 || res.status === 410) {
      await repo.deletePushSubscription(deps.db, { businessId, id: target.id });
    } else if (res.status >= 300) {
      deps.logger.warn(
        { status: res.status, subscription: target.id },
        'push service refused a notification',
      );
    }
    return res.status;
  } catch (err) {
    deps.logger.warn({ err, subscription: target.id }, 'push not delivered');
    return 0;
  }
}

/**
 * Pushes new notifications to every browser of their members whose sign-in still stands: the
 * recipients' live subscriptions read in one statement (most members have none: nothing more is
 * read for them). Answers, per row, how many browsers took it; a row whose sending fails is logged
 * and counts 0.
 */
export async function pushNotifications(
  deps: NotificationDeps,
  rows: readonly repo.NotificationRow[],
): Promise<number[]> {
  const members = new Map(rows.map((r) => [`${r.businessId}:${r.userId}`, r]));
  const subscriptions = await repo.liveSubscriptionsOf(
    deps.db,
    [...members.values()].map((r) => ({ businessId: r.businessId, userId: r.userId })),
  );
  const targetsOf = new Map<string, PushTarget[]>();
  for (const { businessId, userId, ...target } of subscriptions) {
    const key = `${businessId}:${userId}`;
    targetsOf.set(key, [...(targetsOf.get(key) ?? []), target]);
  }
  return Promise.all(
    rows.map((row) => {
      const targets = targetsOf.get(`${row.businessId}:${row.userId}`) ?? [];
      if (targets.length === 0) return 0;
      return pushTo(deps, row, targets).catch((err: unknown) => {
        deps.logger.warn({ err, notification: row.id }, 'push not sent');
        return 0;
      });
    }),
  );
}

/** Sends one notification to its member's browsers; marks it pushed when one took it. */
async function pushTo(
  deps: NotificationDeps,
  row: repo.NotificationRow,
  targets: PushTarget[],
): Promise<number> {
  const business = await findBusinessById(deps.db, row.businessId);
  if (!business) return 0;
  const payload: TPushPayload = {
    id: row.id,
    type: row.type,
    title: row.title,
    body: row.body,
    conversation_id: row.conversationId,
    business_code: business.uniqueCode,
    unread_count: await repo.countUnread(deps.db, row.businessId, row.userId),
  };
  let delivered = 0;
  for (const target of targets) {
    const status = await sendPush(deps, row.businessId, target, payload);
    if (status >= 200 && status < 300) delivered++;
  }
  if (delivered > 0) await repo.markPushed(deps.db, row.id);
  return delivered;
}
