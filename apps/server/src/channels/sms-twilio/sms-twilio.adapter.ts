// SMS through Twilio's Messages API (or anything speaking it: SMS_API_URL, tools/sms-sim). A send
// is one form POST to /2010-04-01/Accounts/{sid}/Messages.json with basic auth (the Account SID
// and Auth Token, or an API key pair); Twilio answers 201 with the message (sid SM…, status
// queued or accepted, num_segments, price) and then posts its statuses to the StatusCallback.
// Twilio takes no idempotency key, so a call that may have reached it is never repeated: only
// refusals before the message existed (429, 5xx, a connection never made) are worth a retry.
import type { ChannelAdapter, ParsedEvent, SendOutcome } from '../channel';
import { describeTwilioError, TRANSIENT_TWILIO_CODES } from './sms-twilio.errors';

export type TwilioAccount = {
  /** SMS_API_URL: https://api.twilio.com, or the simulator. */
  apiUrl: string;
  accountSid: string;
  /** Basic auth: the Account SID and Auth Token, or an API key SID and secret. */
  username: string;
  password: string;
  timeoutMs?: number;
};

/** Twilio's parameters for one message (the send's provider_request). */
export type SmsPayload = {
  To: string;
  Body: string;
  From?: string;
  MessagingServiceSid?: string;
  StatusCallback?: string;
  /** MMS: public URLs Twilio fetches the media from (up to 10; a staff reply's picture). */
  MediaUrl?: string[];
};

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const int = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : NaN;
  return Number.isInteger(n) ? n : null;
};

const DEFAULT_TIMEOUT_MS = 15_000;

/** Connection errors raised before any byte reached Twilio: the message surely does not exist. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export const UNCERTAIN_CODE = 'titan_uncertain';
export const UNREACHABLE_CODE = 'titan_unreachable';

function authHeader(account: TwilioAccount): string {
  return `Basic ${Buffer.from(`${account.username}:${account.password}`).toString('base64')}`;
}

const accountPath = (account: TwilioAccount) =>
  `${account.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(account.accountSid)}`;

/** An HTTP call to Twilio's API: the status and JSON body, or what went wrong on the way. */
async function call(
  account: TwilioAccount,
  method: 'GET' | 'POST',
  url: string,
  form?: Record<string, string | string[]>,
): Promise<
  | { kind: 'answer'; status: number; body: Record<string, unknown>; retryAfterMs: number | null }
  | { kind: 'unreachable'; detail: string }
  | { kind: 'uncertain'; detail: string }
> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        authorization: authHeader(account),
        accept: 'application/json',
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      // A list (MediaUrl) is the same parameter repeated, as Twilio takes it.
      body: form
        ? new URLSearchParams(
            Object.entries(form).flatMap(([k, v]) =>
              (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
            ),
          ).toString()
        : undefined,
      signal: AbortSignal.timeout(account.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    const code = cause?.code ?? (err as { code?: string }).code;
    if (code && NEVER_CONNECTED.has(code)) return { kind: 'unreachable', detail: code };
    return { kind: 'uncertain', detail: code ?? (err as Error).name ?? 'error' };
  }
  let body: Record<string, unknown> = {};
  try {
    body = obj(await res.json());
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  const retryAfter = Number(res.headers.get('retry-after'));
  return {
    kind: 'answer',
    status: res.status,
    body,
    retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null,
  };
}

/** Is this failed outcome worth another attempt (Twilio refused it for now, nothing was created)? */
export function isTransient(outcome: Extract<SendOutcome, { ok: false }>): boolean {
  return outcome.response?.transient === true;
}

/** How long Twilio asked to wait before trying again (its Retry-After), when it said. */
export function retryAfterMs(outcome: Extract<SendOutcome, { ok: false }>): number | null {
  return int(outcome.response?.retry_after_ms);
}

/** What Twilio says about one message it accepted (GET …/Messages/{sid}.json). */
export type TwilioMessage = {
  sid: string;
  status: string;
  numSegments: number | null;
  price: string | null;
  priceUnit: string | null;
};

function messageOf(body: Record<string, unknown>): TwilioMessage {
  return {
    sid: text(body.sid) ?? '',
    status: text(body.status) ?? '',
    numSegments: int(body.num_segments),
    price: text(body.price),
    priceUnit: text(body.price_unit),
  };
}

/**
 * Twilio's statuses as the spine's SMS order has them: still with Twilio (`accepted`), handed to
 * the carrier (`sent`), `delivered`, or `failed` (undelivered included); null for the others.
 */
export function sendStatusOf(twilioStatus: string): string | null {
  switch (twilioStatus) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
    case 'sending':
      return 'accepted';
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
    case 'failed':
      return 'failed';
    case 'canceled':
      return 'cancelled';
    default:
      return null;
  }
}

/** One status callback's parameters as an event of the spine (null when it reports nothing known). */
export function parseStatusCallback(params: Record<string, string>): ParsedEvent | null {
  const sid = text(params.MessageSid) ?? text(params.SmsSid);
  const status = text(params.MessageStatus) ?? text(params.SmsStatus);
  const type = status ? sendStatusOf(status) : null;
  if (!sid || !status || !type) return null;
  const code = int(params.ErrorCode);
  return {
    providerMessageId: sid,
    type,
    timestamp: null,
    payload: {
      ...params,
      provider_status: status,
      // The spine keeps a failure's first error on the send (as WhatsApp reports them).
      ...(code !== null && code !== 0
        ? { errors: [{ code: String(code), message: describeTwilioError(code) }] }
        : {}),
    },
  };
}

export const smsTwilio: ChannelAdapter<TwilioAccount, SmsPayload> & {
  fetchMessage(account: TwilioAccount, sid: string): Promise<TwilioMessage | null>;
  verifyAccount(
    account: TwilioAccount,
  ): Promise<{ ok: true } | { ok: false; status: number; message: string }>;
} = {
  async send(account, payload): Promise<SendOutcome> {
    const form: Record<string, string | string[]> = { To: payload.To, Body: payload.Body };
    if (payload.MediaUrl?.length) form.MediaUrl = payload.MediaUrl;
    if (payload.MessagingServiceSid) form.MessagingServiceSid = payload.MessagingServiceSid;
    if (payload.From) form.From = payload.From;
    if (payload.StatusCallback) form.StatusCallback = payload.StatusCallback;
    const answer = await call(account, 'POST', `${accountPath(account)}/Messages.json`, form);
    if (answer.kind === 'unreachable') {
      return {
        ok: false,
        errorCode: UNREACHABLE_CODE,
        errorMessage: describeTwilioError(null, `Twilio could not be reached (${answer.detail}).`),
        response: { transient: true, detail: answer.detail },
        cause: answer.detail,
      };
    }
    if (answer.kind === 'uncertain') {
      return {
        ok: false,
        errorCode: UNCERTAIN_CODE,
        errorMessage: `Twilio did not answer (${answer.detail}); the message may or may not have been sent.`,
        response: { transient: false, detail: answer.detail },
        cause: answer.detail,
      };
    }
    const { status, body } = answer;
    if (status >= 200 && status < 300 && text(body.sid)) {
      return { ok: true, providerMessageId: text(body.sid), response: body };
    }
    const code = int(body.code);
    const transient =
      status === 429 ||
      status === 503 ||
      status === 500 ||
      (code !== null && TRANSIENT_TWILIO_CODES.has(code));
    return {
      ok: false,
      errorCode: code !== null ? String(code) : `http_${status}`,
      errorMessage: describeTwilioError(code, text(body.message) ?? `HTTP ${status}`),
      response: { ...body, http_status: status, transient, retry_after_ms: answer.retryAfterMs },
      cause: body,
    };
  },

  /** One status callback's form parameters (Twilio posts one status per request). */
  parseEvents(raw) {
    const params = obj(raw) as Record<string, string>;
    const event = parseStatusCallback(params);
    return event ? [event] : [];
  },

  describeError(code, fallback) {
    const n = code === null ? null : Number(code);
    return describeTwilioError(n !== null && Number.isInteger(n) ? n : null, fallback);
  },

  async fetchMessage(account, sid) {
    const answer = await call(
      account,
      'GET',
      `${accountPath(account)}/Messages/${encodeURIComponent(sid)}.json`,
    );
    if (answer.kind !== 'answer' || answer.status !== 200) return null;
    return messageOf(answer.body);
  },

  /**
   * Proves the credentials before they are saved: one page of the account's messages (what a
   * standard API key may read; the Account resource itself it may not).
   */
  async verifyAccount(account) {
    const answer = await call(account, 'GET', `${accountPath(account)}/Messages.json?PageSize=1`);
    if (answer.kind !== 'answer')
      return { ok: false, status: 0, message: `Twilio could not be reached (${answer.detail}).` };
    if (answer.status === 200) return { ok: true };
    const code = int(answer.body.code);
    return {
      ok: false,
      status: answer.status,
      message: describeTwilioError(code, text(answer.body.message) ?? `HTTP ${answer.status}`),
    };
  },
};
