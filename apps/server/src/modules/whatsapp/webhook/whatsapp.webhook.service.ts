// WhatsApp Cloud API, receiving side: Meta's webhook handshake, and signed deliveries stored
// before the 200 (whatsapp.inbound.ts turns them into conversations and statuses).
import { createHmac } from 'node:crypto';
import type { Db } from '../../../db/client';
import { safeEqual } from '../../../platform/crypto';
import { AppError } from '../../../platform/errors';
import { WEBHOOK_QUEUE } from './whatsapp.inbound';
import type { WhatsappDeps } from '../messages/whatsapp.outbound';
import * as accountRepo from '../account/whatsapp.account.repository';
import * as webhookRepo from './whatsapp.webhook.repository';

export type { WhatsappDeps };

type SigningAccount = { id: number; appSecret: string };

/**
 * The account and opened app secret per phone_number_id, per process (keyed by the database
 * handle). Saving an account clears it here; another instance's save is seen within the TTL, the
 * only time a delivery signed with a just-changed secret can be refused (and Meta retries).
 */
const SIGNING_TTL_MS = 10_000;
const SIGNING_MAX_ENTRIES = 1_000;
const signingCaches = new WeakMap<Db, Map<string, { account: SigningAccount; expires: number }>>();

/** Drops this process's signing accounts: the next delivery is checked with what was just saved. */
export function forgetSigningAccounts(db: Db): void {
  signingCaches.get(db)?.clear();
}

async function signingAccount(deps: WhatsappDeps, phoneNumberId: string): Promise<SigningAccount | null> {
  let cache = signingCaches.get(deps.db);
  if (!cache) signingCaches.set(deps.db, (cache = new Map()));
  const hit = cache.get(phoneNumberId);
  if (hit && hit.expires > Date.now()) return hit.account;
  const row = await accountRepo.findAccountByPhoneNumberId(deps.db, phoneNumberId);
  if (!row) {
    cache.delete(phoneNumberId);
    return null;
  }
  const account = { id: row.id, appSecret: deps.secrets.open(row.appSecretSealed) };
  if (cache.size >= SIGNING_MAX_ENTRIES) cache.clear();
  cache.set(phoneNumberId, { account, expires: Date.now() + SIGNING_TTL_MS });
  return account;
}

/** Meta's GET handshake: the challenge back, byte for byte, when the token is one of ours. */
export async function verifySubscription(
  db: Db,
  query: { 'hub.mode'?: string; 'hub.verify_token'?: string; 'hub.challenge'?: string },
): Promise<string> {
  const token = query['hub.verify_token'];
  const accounts = token ? await accountRepo.findAccountsByVerifyToken(db, token) : [];
  if (query['hub.mode'] !== 'subscribe' || accounts.length === 0 || query['hub.challenge'] === undefined) {
    throw new AppError('forbidden', 'Verification failed.');
  }
  return query['hub.challenge'];
}

/** Where a delivery is for: the first phone_number_id in Meta's compact body, read without parsing 3 MB. */
function phoneNumberIdOf(body: string): string | null {
  const found = /"phone_number_id"\s*:\s*"([^"\\]+)"/.exec(body);
  if (found) return found[1]!;
  // Not Meta's usual bytes: find it the long way.
  let payload: { entry?: { changes?: { value?: { metadata?: { phone_number_id?: unknown } } }[] }[] };
  try {
    payload = JSON.parse(body) as typeof payload;
  } catch {
    return null;
  }
  for (const entry of Array.isArray(payload?.entry) ? payload.entry : []) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const id = change?.value?.metadata?.phone_number_id;
      if (typeof id === 'string') return id;
    }
  }
  return null;
}

/** PostgreSQL refusing the stored body: not JSON (22P02, 22P05), or the account just went (23503). */
function refusedBody(err: unknown): 'invalid' | 'gone' | null {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '22P02' || e.code === '22P05' || e.code === '22032') return 'invalid';
    if (e.code === '23503') return 'gone';
  }
  return null;
}

/** Deliveries stored at once by one process: more wait and then share the next insert. */
const EVENT_WRITES_AT_ONCE = 2;
const EVENT_WRITE_MAX_ROWS = 100;
const EVENT_WRITE_MAX_CHARS = 4 * 1024 * 1024;

type EventWrite = { accountId: number; rawBody: string; done: (err?: unknown) => void };

/**
 * Deliveries that arrive together share one insert: one round trip and one commit for all of
 * them, each answered only once that commit is done. A shared insert that fails is retried row
 * by row, so a bad body fails alone.
 */
class EventWriter {
  private readonly waiting: EventWrite[] = [];
  private writing = 0;

  constructor(private readonly db: Db) {}

  write(accountId: number, rawBody: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ accountId, rawBody, done: (err) => (err ? reject(err) : resolve()) });
      this.flush();
    });
  }

  private flush(): void {
    while (this.writing < EVENT_WRITES_AT_ONCE && this.waiting.length > 0) {
      let n = 1;
      let chars = this.waiting[0]!.rawBody.length;
      while (n < this.waiting.length && n < EVENT_WRITE_MAX_ROWS) {
        chars += this.waiting[n]!.rawBody.length;
        if (chars > EVENT_WRITE_MAX_CHARS) break;
        n++;
      }
      const batch = this.waiting.splice(0, n);
      this.writing++;
      void this.insert(batch).finally(() => {
        this.writing--;
        this.flush();
      });
    }
  }

  private async insert(batch: EventWrite[]): Promise<void> {
    try {
      await webhookRepo.insertWebhookEvents(this.db, batch);
      for (const write of batch) write.done();
    } catch (err) {
      if (batch.length === 1) return batch[0]!.done(err);
      await Promise.all(
        batch.map((write) =>
          webhookRepo.insertWebhookEvents(this.db, [write]).then(
            () => write.done(),
            (e: unknown) => write.done(e),
          ),
        ),
      );
    }
  }
}

const eventWriters = new WeakMap<Db, EventWriter>();

function eventWriterOf(db: Db): EventWriter {
  let writer = eventWriters.get(db);
  if (!writer) eventWriters.set(db, (writer = new EventWriter(db)));
  return writer;
}

const invalidSignature = () => new AppError('unauthorized', 'Invalid signature.');

/** A delivery whose signature was checked: the account it is for and its text. */
export type VerifiedDelivery = { accountId: number; body: string };

/**
 * A delivery's signature, checked over the raw bytes with the number's app secret. Anything
 * unsigned, mis-signed or for an unknown number is refused (401) and nothing is kept.
 */
export async function verifyDelivery(
  deps: WhatsappDeps,
  raw: Buffer,
  signatureHeader: string | undefined,
): Promise<VerifiedDelivery> {
  if (!signatureHeader?.startsWith('sha256=')) throw invalidSignature();
  const body = raw.toString('utf8');
  const phoneNumberId = phoneNumberIdOf(body);
  const account = phoneNumberId ? await signingAccount(deps, phoneNumberId) : null;
  if (!account) throw invalidSignature();
  const expected = createHmac('sha256', account.appSecret).update(raw).digest('hex');
  if (!safeEqual(`sha256=${expected}`, signatureHeader.toLowerCase())) throw invalidSignature();
  return { accountId: account.id, body };
}

/**
 * A verified delivery, stored as is (committed before the 200) for the webhook processor, which
 * is woken in this process and polls for deliveries other instances stored.
 */
export async function acceptWebhook(
  deps: WhatsappDeps,
  { accountId, body }: VerifiedDelivery,
): Promise<void> {
  try {
    await eventWriterOf(deps.db).write(accountId, body);
  } catch (err) {
    const refused = refusedBody(err);
    if (refused === 'gone') throw invalidSignature();
    if (refused === 'invalid') throw new AppError('bad_request', 'The delivery is not valid JSON.');
    throw err;
  }
  deps.jobs.wake(WEBHOOK_QUEUE);
}
