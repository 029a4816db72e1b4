// A business's Twilio account (GET, PUT /api/sms/account/): the Account SID, the sender (a number
// or a Messaging Service) and the sealed Auth Token (and API key secret), proven against Twilio
// before they are kept. Opened credentials are cached briefly per process for sending and for
// checking Twilio's signatures; saving clears this process's cache.
import type { TSaveSmsAccountInput, TSmsAccount } from '@titan/contracts';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { smsTwilio, type TwilioAccount } from '../../channels/sms-twilio/sms-twilio.adapter';
import type { SecretBox } from '../../platform/crypto';
import { AppError } from '../../platform/errors';
import type { Jobs } from '../../platform/jobs';
import * as repo from './sms.repository';

export type SmsDeps = {
  db: Db;
  jobs: Jobs;
  secrets: SecretBox;
  logger: Logger;
  config: Pick<Config, 'PUBLIC_URL' | 'SMS_API_URL' | 'SMS_RETRY_DELAYS_MS'>;
};

export const SMS_ACCOUNT_ERRORS = {
  notConnected: 'No SMS account is connected yet.',
  authTokenRequired: 'Enter the Auth Token to connect the account.',
  apiKeySecretRequired: 'Enter the API key secret.',
  taken: 'This Twilio account is already connected to another business.',
  refused:
    'Twilio refused these credentials. Check the Account SID and Auth Token (or API key) in the Twilio Console.',
  unknownAccount: 'Twilio does not know this Account SID.',
  unreachable: (detail: string) => `Twilio could not be reached to check the account: ${detail}`,
} as const;

export const statusCallbackUrl = (publicUrl: string) => `${publicUrl}/api/sms/webhook/status/`;
export const inboundUrl = (publicUrl: string) => `${publicUrl}/api/sms/webhook/inbound/`;

function toAccount(row: repo.SmsAccountRow, publicUrl: string): TSmsAccount {
  return {
    account_sid: row.accountSid,
    from_number: row.fromNumber,
    messaging_service_sid: row.messagingServiceSid,
    api_key_sid: row.apiKeySid,
    has_auth_token: row.authTokenSealed.length > 0,
    has_api_key_secret: !!row.apiKeySecretSealed,
    status_callback_url: statusCallbackUrl(publicUrl),
    inbound_url: inboundUrl(publicUrl),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** An account opened for use: where to call, as whom, and what Twilio signs with. */
export type OpenAccount = {
  businessId: number;
  twilio: TwilioAccount;
  authToken: string;
  fromNumber: string | null;
  messagingServiceSid: string | null;
};

function open(deps: Pick<SmsDeps, 'secrets' | 'config'>, row: repo.SmsAccountRow): OpenAccount {
  const authToken = deps.secrets.open(row.authTokenSealed);
  const key = row.apiKeySid && row.apiKeySecretSealed ? row.apiKeySid : null;
  return {
    businessId: row.businessId,
    twilio: {
      apiUrl: deps.config.SMS_API_URL,
      accountSid: row.accountSid,
      username: key ?? row.accountSid,
      password: key ? deps.secrets.open(row.apiKeySecretSealed!) : authToken,
    },
    authToken,
    fromNumber: row.fromNumber,
    messagingServiceSid: row.messagingServiceSid,
  };
}

// Opened accounts per process (keyed by the database handle), by business and by Account SID. A
// save elsewhere is seen within the TTL.
const TTL_MS = 10_000;
type Cache = Map<string, { account: Promise<OpenAccount | null>; expires: number }>;
const caches = new WeakMap<Db, Cache>();

function cached(deps: SmsDeps, key: string, load: () => Promise<repo.SmsAccountRow | null>) {
  let cache = caches.get(deps.db);
  if (!cache) caches.set(deps.db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.expires > Date.now()) return hit.account;
  if (cache.size > 10_000) cache.clear();
  const account = load().then((row) => (row ? open(deps, row) : null));
  cache.set(key, { account, expires: Date.now() + TTL_MS });
  account.catch(() => cache.delete(key));
  return account;
}

/** The business's account, opened; null when none is connected. */
export function accountOfBusiness(deps: SmsDeps, businessId: number): Promise<OpenAccount | null> {
  return cached(deps, `b:${businessId}`, () => repo.findAccountByBusiness(deps.db, businessId));
}

/** The account Twilio names in a webhook (AccountSid), opened; null when no business has it. */
export function accountOfSid(deps: SmsDeps, accountSid: string): Promise<OpenAccount | null> {
  return cached(deps, `a:${accountSid}`, () => repo.findAccountBySid(deps.db, accountSid));
}

export async function findAccount(deps: SmsDeps, businessId: number): Promise<TSmsAccount> {
  const row = await repo.findAccountByBusiness(deps.db, businessId);
  if (!row) throw AppError.notFound(SMS_ACCOUNT_ERRORS.notConnected);
  return toAccount(row, deps.config.PUBLIC_URL);
}

/**
 * Connects (or updates) the business's account. Secrets left out are kept when the account stays
 * the same; the credentials are proven against Twilio before anything is written.
 */
export async function saveAccount(
  deps: SmsDeps,
  businessId: number,
  input: TSaveSmsAccountInput,
): Promise<TSmsAccount> {
  const current = await repo.findAccountByBusiness(deps.db, businessId);
  const sameAccount = current?.accountSid === input.account_sid;
  const authToken = input.auth_token ?? (sameAccount ? deps.secrets.open(current.authTokenSealed) : null);
  if (!authToken) throw AppError.fields({ auth_token: [SMS_ACCOUNT_ERRORS.authTokenRequired] });
  const apiKeySid = input.api_key_sid ?? null;
  const apiKeySecret = apiKeySid
    ? (input.api_key_secret ??
      (sameAccount && current.apiKeySid === apiKeySid && current.apiKeySecretSealed
        ? deps.secrets.open(current.apiKeySecretSealed)
        : null))
    : null;
  if (apiKeySid && !apiKeySecret)
    throw AppError.fields({ api_key_secret: [SMS_ACCOUNT_ERRORS.apiKeySecretRequired] });
  const owner = await repo.findAccountBySid(deps.db, input.account_sid);
  if (owner && owner.businessId !== businessId)
    throw AppError.fields({ account_sid: [SMS_ACCOUNT_ERRORS.taken] });

  const checked = await smsTwilio.verifyAccount({
    apiUrl: deps.config.SMS_API_URL,
    accountSid: input.account_sid,
    username: apiKeySid ?? input.account_sid,
    password: apiKeySecret ?? authToken,
  });
  if (!checked.ok) {
    if (checked.status === 401 || checked.status === 403)
      throw AppError.fields({
        [apiKeySid ? 'api_key_secret' : 'auth_token']: [SMS_ACCOUNT_ERRORS.refused],
      });
    if (checked.status === 404) throw AppError.fields({ account_sid: [SMS_ACCOUNT_ERRORS.unknownAccount] });
    throw new AppError('conflict', SMS_ACCOUNT_ERRORS.unreachable(checked.message));
  }
  const row = await repo.upsertAccount(deps.db, {
    businessId,
    accountSid: input.account_sid,
    authTokenSealed: deps.secrets.seal(authToken),
    apiKeySid,
    apiKeySecretSealed: apiKeySecret ? deps.secrets.seal(apiKeySecret) : null,
    fromNumber: input.from_number ?? null,
    messagingServiceSid: input.messaging_service_sid ?? null,
  });
  // What was just saved is used at once by this process (sends, signatures).
  caches.get(deps.db)?.clear();
  return toAccount(row, deps.config.PUBLIC_URL);
}
