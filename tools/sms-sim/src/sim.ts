// A local Twilio Programmable Messaging API: the Messages resource (create, fetch, list) with basic
// auth by Account SID and Auth Token or API key, Twilio's validation and error bodies, its magic
// test numbers, opt-outs kept per sender, signed status callbacks (with switches for delays,
// out-of-order and duplicate delivery, delivery failures and rate limits), inbound texts posted
// signed to the account's webhook, a control API under /sim/ and a phone page at /phone.
import { readFileSync } from 'node:fs';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import {
  DELIVERY_ERRORS,
  errorBody,
  MAGIC_TO,
  newSid,
  optOutTypeOf,
  rfc2822,
  segmentsOf,
  signatureFor,
} from './twilio';

export type SimAccount = {
  accountSid: string;
  authToken: string;
  /** API keys of the account (SK…, secret): the other way to authenticate. */
  apiKeys?: { sid: string; secret: string }[];
  /** SMS-capable numbers the account owns (E.164). */
  numbers: string[];
  messagingServices?: { sid: string; numbers: string[] }[];
  /** The number's "A message comes in" webhook; else the simulator's `inboundUrl`. */
  inboundUrl?: string;
};

export type SimSwitches = {
  /** Between one status callback and the next of a message. */
  statusDelayMs: number;
  /** Post the final status before `sent` (and `queued`). */
  outOfOrder: boolean;
  /** Post every status callback twice. */
  duplicateCallbacks: boolean;
  /** Report delivery; off: messages stop at `sent`. */
  deliver: boolean;
  /** Messages created per second per account before 429 (code 20429); null: no limit. */
  ratePerSecond: number | null;
};

export type SimOptions = {
  port?: number;
  host?: string;
  accounts: SimAccount[];
  switches?: Partial<SimSwitches>;
  /** Where inbound texts go when the account names no URL. */
  inboundUrl?: string;
  /** What one segment costs (Twilio's negative decimal string). */
  pricePerSegment?: number;
};

export type SimMessage = {
  sid: string;
  account_sid: string;
  api_version: '2010-04-01';
  body: string;
  date_created: string;
  date_updated: string;
  date_sent: string | null;
  direction: 'outbound-api' | 'inbound';
  error_code: number | null;
  error_message: string | null;
  from: string | null;
  messaging_service_sid: string | null;
  num_media: string;
  num_segments: string;
  price: string | null;
  price_unit: string;
  status: string;
  subresource_uris: { media: string };
  to: string;
  uri: string;
};

export type CallbackRecord = {
  url: string;
  params: Record<string, string>;
  /** Titan's HTTP status, or 0 when the request failed. */
  answer: number;
  body: string;
  /** How long the receiver took to answer, and when it had (epoch ms). */
  ms: number;
  at: number;
};

/** An API call as the simulator received it (what a client sent, credentials included). */
export type ApiRequest = {
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  form: Record<string, string>;
  /** Every MediaUrl the call carried (the form keeps one value per name; MMS repeats MediaUrl). */
  mediaUrls: string[];
};

/** What the simulator fetched of an MMS's MediaUrl, as Twilio fetches it before sending. */
export type SimMedia = { url: string; status: number | null; contentType: string | null; bytes: number };

/** The content types Twilio sends as MMS to US and Canadian numbers without converting (images). */
const MMS_CONTENT_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/gif'];
const MMS_MAX_MEDIA = 10;

export type SmsSim = {
  url: string;
  /** Titan's SMS_API_URL. */
  apiUrl: string;
  phoneUrl: string;
  messages: SimMessage[];
  callbacks: CallbackRecord[];
  requests: ApiRequest[];
  /** What the simulator fetched of each MMS's MediaUrl, by message sid. */
  media: Map<string, SimMedia[]>;
  switches: SimSwitches;
  set(switches: Partial<SimSwitches>): void;
  addAccount(account: SimAccount): void;
  /** The next `count` creates answer this error (e.g. 429 / 20429). */
  failNextSends(count: number, status?: number, code?: number, message?: string): void;
  /** Messages to `number` end with this delivery error (30003…); null: delivered again. */
  setOutcome(number: string, errorCode: number | null): void;
  /** A text from a phone to one of an account's numbers, posted signed to the inbound webhook. */
  sendInbound(input: {
    from: string;
    to: string;
    body: string;
  }): Promise<{ sid: string; answer: number; body: string }>;
  setInboundUrl(url: string): void;
  isOptedOut(sender: string, phone: string): boolean;
  /** Resolves with `find()`'s first truthy answer, polling the state. */
  waitFor<T>(find: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  reset(): void;
  close(): Promise<void>;
};

const DEFAULT_SWITCHES: SimSwitches = {
  statusDelayMs: 20,
  outOfOrder: false,
  duplicateCallbacks: false,
  deliver: true,
  ratePerSecond: null,
};

const E164 = /^\+[1-9]\d{6,14}$/;
const MAX_BODY = 1600;
const FORM_LIMIT = 64 * 1024;

const phonePage = readFileSync(new URL('./phone-page.html', import.meta.url), 'utf8');

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > FORM_LIMIT) {
        reject(new Error('too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'twilio-request-id': `RQ${newSid('SM').slice(2)}`,
    ...headers,
  });
  res.end(text);
}

const twilioError = (res: ServerResponse, status: number, code: number, message: string, headers = {}) =>
  json(res, status, errorBody(status, code, message), headers);

export async function startSmsSim(options: SimOptions): Promise<SmsSim> {
  const accounts = new Map<string, SimAccount>();
  for (const a of options.accounts) accounts.set(a.accountSid, a);
  const messages: SimMessage[] = [];
  const bySid = new Map<string, SimMessage>();
  const callbacks: CallbackRecord[] = [];
  const requests: ApiRequest[] = [];
  /** What was fetched of each MMS's media, by message sid. */
  const mediaBySid = new Map<string, SimMedia[]>();
  const switches: SimSwitches = { ...DEFAULT_SWITCHES, ...options.switches };
  const outcomes = new Map<string, number>();
  const failNext: { status: number; code: number; message: string }[] = [];
  /** `${sender}|${phone}`: sender is the number, or the Messaging Service holding it. */
  const optOuts = new Set<string>();
  const rate = new Map<string, { second: number; n: number }>();
  const timers = new Set<NodeJS.Timeout>();
  let inboundUrl = options.inboundUrl ?? null;
  const pricePerSegment = options.pricePerSegment ?? 0.0079;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 64 });

  const senderOf = (account: SimAccount, number: string) =>
    account.messagingServices?.find((s) => s.numbers.includes(number))?.sid ?? number;

  /** Basic auth as the account (SID + Auth Token) or one of its API keys. */
  function authenticated(req: IncomingMessage, account: SimAccount | undefined): boolean {
    const header = req.headers.authorization ?? '';
    if (!account || !header.startsWith('Basic ')) return false;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const at = decoded.indexOf(':');
    const [user, pass] = [decoded.slice(0, at), decoded.slice(at + 1)];
    if (user === account.accountSid && pass === account.authToken) return true;
    return (account.apiKeys ?? []).some((k) => k.sid === user && k.secret === pass);
  }

  function later(ms: number, run: () => void) {
    const t = setTimeout(() => {
      timers.delete(t);
      run();
    }, ms);
    timers.add(t);
  }

  /** Posts a form signed with the account's Auth Token; records Titan's answer. */
  async function post(
    account: SimAccount,
    url: string,
    params: Record<string, string>,
  ): Promise<CallbackRecord> {
    // Timed from when a connection takes the request (not while it waits for one of the agent's
    // sockets): the receiver's answer time, not this simulator's own queue.
    let started = Date.now();
    const body = new URLSearchParams(params).toString();
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const record: CallbackRecord = { url, params, answer: 0, body: '', ms: 0, at: 0 };
    await new Promise<void>((resolve) => {
      const req = send(
        target,
        {
          method: 'POST',
          agent: target.protocol === 'https:' ? httpsAgent : agent,
          headers: {
            'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'TwilioProxy/1.1',
            'x-twilio-signature': signatureFor(account.authToken, url, params),
            'i-twilio-idempotency-token': newSid('SM').slice(2),
          },
          timeout: 15_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            record.answer = res.statusCode ?? 0;
            record.body = Buffer.concat(chunks).toString('utf8');
            resolve();
          });
          res.on('error', () => resolve());
        },
      );
      req.on('socket', () => {
        started = Date.now();
      });
      req.on('error', () => resolve());
      req.on('timeout', () => req.destroy());
      req.end(body);
    });
    record.at = Date.now();
    record.ms = record.at - started;
    callbacks.push(record);
    return record;
  }

  function statusParams(m: SimMessage): Record<string, string> {
    return {
      SmsSid: m.sid,
      SmsStatus: m.status,
      MessageStatus: m.status,
      To: m.to,
      ...(m.messaging_service_sid ? { MessagingServiceSid: m.messaging_service_sid } : {}),
      MessageSid: m.sid,
      AccountSid: m.account_sid,
      From: m.from ?? '',
      ApiVersion: '2010-04-01',
      ...(m.error_code !== null ? { ErrorCode: String(m.error_code) } : {}),
    };
  }

  /** Moves a message through its statuses, posting each to its StatusCallback (when it has one). */
  function runLifecycle(account: SimAccount, m: SimMessage, callbackUrl: string | null, mediaError?: number) {
    const failure = mediaError ?? outcomes.get(m.to);
    const failureStatus =
      mediaError !== undefined
        ? 'failed'
        : failure !== undefined
          ? (DELIVERY_ERRORS[failure] ?? 'undelivered')
          : null;
    type Step = { status: string; errorCode: number | null };
    // No callback for the initial status; a Messaging Service's `accepted` is followed by `queued`.
    const natural: Step[] = [];
    if (m.messaging_service_sid) natural.push({ status: 'queued', errorCode: null });
    if (failureStatus === 'failed') natural.push({ status: 'failed', errorCode: failure! });
    else {
      natural.push({ status: 'sent', errorCode: null });
      if (failureStatus) natural.push({ status: 'undelivered', errorCode: failure! });
      else if (switches.deliver) natural.push({ status: 'delivered', errorCode: null });
    }
    const order =
      switches.outOfOrder && natural.length > 1 ? [natural.at(-1)!, ...natural.slice(0, -1)] : natural;
    let reached = -1;
    order.forEach((step, i) =>
      later((i + 1) * switches.statusDelayMs, () => {
        // The resource only moves forward, whatever order the callbacks go out in.
        const rank = natural.indexOf(step);
        if (rank > reached) {
          reached = rank;
          m.status = step.status;
          m.date_updated = rfc2822(new Date());
          if (step.status === 'sent') m.date_sent = m.date_updated;
          if (step.errorCode !== null) m.error_code = step.errorCode;
          if (['delivered', 'undelivered', 'failed'].includes(step.status))
            m.price = (-pricePerSegment * Number(m.num_segments)).toFixed(5);
        }
        if (!callbackUrl) return;
        const params = statusParams({ ...m, status: step.status, error_code: step.errorCode });
        void post(account, callbackUrl, params).then(() => {
          if (switches.duplicateCallbacks) void post(account, callbackUrl, params);
        });
      }),
    );
  }

  async function fetchMedia(urls: string[]): Promise<SimMedia[]> {
    return Promise.all(
      urls.map(async (url) => {
        try {
          const r = await fetch(url, { signal: AbortSignal.timeout(10_000) });
          const bytes = (await r.arrayBuffer()).byteLength;
          const contentType = r.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? null;
          return { url, status: r.status, contentType, bytes };
        } catch {
          return { url, status: null, contentType: null, bytes: 0 };
        }
      }),
    );
  }

  function createMessage(res: ServerResponse, account: SimAccount, form: URLSearchParams) {
    const to = form.get('To')?.trim() ?? '';
    const from = form.get('From')?.trim() ?? '';
    const serviceSid = form.get('MessagingServiceSid')?.trim() ?? '';
    const body = form.get('Body') ?? '';
    const media = form.getAll('MediaUrl');
    const callback = form.get('StatusCallback')?.trim() || null;
    if (failNext.length > 0) {
      const f = failNext.shift()!;
      return twilioError(res, f.status, f.code, f.message, f.status === 429 ? { 'retry-after': '1' } : {});
    }
    if (switches.ratePerSecond !== null) {
      const second = Math.floor(Date.now() / 1000);
      const r = rate.get(account.accountSid);
      const n = r && r.second === second ? r.n + 1 : 1;
      rate.set(account.accountSid, { second, n });
      if (n > switches.ratePerSecond)
        return twilioError(res, 429, 20429, 'Too Many Requests', { 'retry-after': '1' });
    }
    if (!to) return twilioError(res, 400, 21604, "A 'To' phone number is required.");
    if (!E164.test(to))
      return twilioError(res, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from && !serviceSid) return twilioError(res, 400, 21603, "A 'From' phone number is required.");
    const service = serviceSid ? account.messagingServices?.find((s) => s.sid === serviceSid) : undefined;
    if (serviceSid && !service) return twilioError(res, 400, 21705, 'The Messaging Service Sid is invalid.');
    if (from && !account.numbers.includes(from))
      return twilioError(
        res,
        400,
        21659,
        `'From' ${from} is not a Twilio phone number or Short Code country mismatch`,
      );
    if (!body && media.length === 0) return twilioError(res, 400, 21602, 'Message body is required.');
    if (media.length > MMS_MAX_MEDIA)
      return twilioError(res, 400, 21623, `The number of media files exceeds the limit of ${MMS_MAX_MEDIA}.`);
    if (media.some((u) => !/^https?:\/\/[^\s]+$/i.test(u)))
      return twilioError(res, 400, 21620, 'Invalid media URL(s).');
    if (Array.from(body).length > MAX_BODY)
      return twilioError(res, 400, 21617, 'The concatenated message body exceeds the 1600 character limit.');
    const magic = MAGIC_TO[to];
    if (magic) return twilioError(res, 400, magic.code, magic.message);
    const senders = service ? [service.sid] : [senderOf(account, from)];
    if (senders.some((s) => optOuts.has(`${s}|${to}`)))
      return twilioError(res, 400, 21610, 'Attempt to send to unsubscribed recipient');
    const now = rfc2822(new Date());
    const sid = newSid('SM');
    const uri = `/2010-04-01/Accounts/${account.accountSid}/Messages/${sid}.json`;
    const m: SimMessage = {
      sid,
      account_sid: account.accountSid,
      api_version: '2010-04-01',
      body,
      date_created: now,
      date_updated: now,
      date_sent: null,
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      // With a Messaging Service, Twilio picks the number when it sends.
      from: service ? (service.numbers[0] ?? null) : from,
      messaging_service_sid: service?.sid ?? null,
      num_media: String(media.length),
      num_segments: String(segmentsOf(body).segments),
      price: null,
      price_unit: 'USD',
      status: service ? 'accepted' : 'queued',
      subresource_uris: { media: uri.replace('.json', '/Media.json') },
      to,
      uri,
    };
    messages.push(m);
    bySid.set(sid, m);
    json(res, 201, { ...m, from: service ? null : m.from });
    if (media.length === 0) return runLifecycle(account, m, callback);
    // Twilio fetches each MediaUrl before it sends; media it cannot fetch, or that is not a
    // picture, fails the message with 12300 (Invalid Content-Type) or 11200 (HTTP retrieval failure).
    void fetchMedia(media).then((fetched) => {
      mediaBySid.set(sid, fetched);
      const bad = fetched.find((f) => f.status !== 200 || !MMS_CONTENT_TYPES.includes(f.contentType ?? ''));
      runLifecycle(account, m, callback, bad ? (bad.status === 200 ? 12300 : 11200) : undefined);
    });
  }

  function listMessages(res: ServerResponse, account: SimAccount, query: URLSearchParams, path: string) {
    const size = Math.min(Math.max(Number(query.get('PageSize') ?? 50) || 50, 1), 1000);
    const page = Math.max(Number(query.get('Page') ?? 0) || 0, 0);
    const mine = messages.filter((m) => m.account_sid === account.accountSid).reverse();
    const slice = mine.slice(page * size, page * size + size);
    const uri = (p: number) => `${path}?PageSize=${size}&Page=${p}`;
    json(res, 200, {
      messages: slice,
      end: page * size + slice.length - 1,
      first_page_uri: uri(0),
      next_page_uri: (page + 1) * size < mine.length ? uri(page + 1) : null,
      page,
      page_size: size,
      previous_page_uri: page > 0 ? uri(page - 1) : null,
      start: page * size,
      uri: uri(page),
    });
  }

  async function sendInbound(input: { from: string; to: string; body: string }) {
    const account = [...accounts.values()].find(
      (a) => a.numbers.includes(input.to) || a.messagingServices?.some((s) => s.numbers.includes(input.to)),
    );
    if (!account) throw new Error(`no account owns ${input.to}`);
    const service = account.messagingServices?.find((s) => s.numbers.includes(input.to));
    const sid = newSid('SM');
    const now = rfc2822(new Date());
    const { segments } = segmentsOf(input.body);
    const m: SimMessage = {
      sid,
      account_sid: account.accountSid,
      api_version: '2010-04-01',
      body: input.body,
      date_created: now,
      date_updated: now,
      date_sent: now,
      direction: 'inbound',
      error_code: null,
      error_message: null,
      from: input.from,
      messaging_service_sid: service?.sid ?? null,
      num_media: '0',
      num_segments: String(segments),
      price: (-pricePerSegment * segments).toFixed(5),
      price_unit: 'USD',
      status: 'received',
      subresource_uris: { media: `/2010-04-01/Accounts/${account.accountSid}/Messages/${sid}/Media.json` },
      to: input.to,
      uri: `/2010-04-01/Accounts/${account.accountSid}/Messages/${sid}.json`,
    };
    messages.push(m);
    bySid.set(sid, m);
    // Twilio's own opt-out handling: the sender (number or its service) stops texting this phone.
    const optOut = optOutTypeOf(input.body);
    const sender = senderOf(account, input.to);
    if (optOut === 'STOP') optOuts.add(`${sender}|${input.from}`);
    if (optOut === 'START') optOuts.delete(`${sender}|${input.from}`);
    const url = account.inboundUrl ?? inboundUrl;
    if (!url) return { sid, answer: 0, body: '' };
    const params: Record<string, string> = {
      ToCountry: 'US',
      ToState: '',
      SmsMessageSid: sid,
      NumMedia: '0',
      ToCity: '',
      FromZip: '',
      SmsSid: sid,
      FromState: '',
      SmsStatus: 'received',
      FromCity: '',
      Body: input.body,
      FromCountry: 'US',
      To: input.to,
      ...(service ? { MessagingServiceSid: service.sid } : {}),
      ToZip: '',
      NumSegments: String(segments),
      MessageSid: sid,
      AccountSid: account.accountSid,
      From: input.from,
      ApiVersion: '2010-04-01',
      ...(optOut ? { OptOutType: optOut } : {}),
    };
    const record = await post(account, url, params);
    return { sid, answer: record.answer, body: record.body };
  }

  const publicAccount = (a: SimAccount) => ({
    account_sid: a.accountSid,
    numbers: a.numbers,
    messaging_services: a.messagingServices ?? [],
    inbound_url: a.inboundUrl ?? inboundUrl,
  });

  async function control(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams) {
    const raw = req.method === 'POST' ? await readBody(req) : '';
    let input: Record<string, unknown> = {};
    try {
      input = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return json(res, 400, { error: 'expected JSON' });
    }
    switch (`${req.method} ${path}`) {
      case 'GET /sim/state':
        return json(res, 200, {
          accounts: [...accounts.values()].map(publicAccount),
          switches,
          messages,
          callbacks: callbacks.length,
          callback_failures: callbacks.filter((c) => c.answer < 200 || c.answer >= 300).length,
          opt_outs: [...optOuts],
        });
      case 'GET /sim/stats': {
        // Figures without the messages themselves (benchmarks poll this).
        const byStatus: Record<string, number> = {};
        for (const m of messages) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
        const times = callbacks.map((c) => c.ms).sort((a, b) => a - b);
        const pick = (q: number) =>
          times.length ? times[Math.min(times.length - 1, Math.floor(q * times.length))]! : null;
        return json(res, 200, {
          messages: messages.length,
          by_status: byStatus,
          requests: requests.length,
          callbacks: callbacks.length,
          callback_failures: callbacks.filter((c) => c.answer < 200 || c.answer >= 300).length,
          callback_p50_ms: pick(0.5),
          callback_p99_ms: pick(0.99),
          callback_max_ms: times.at(-1) ?? null,
          first_callback_at: callbacks.reduce<number | null>(
            (a, c) => Math.min(a ?? Infinity, c.at - c.ms),
            null,
          ),
          last_callback_at: callbacks.reduce<number | null>((a, c) => Math.max(a ?? 0, c.at), null),
        });
      }
      case 'GET /sim/thread': {
        const number = query.get('number') ?? '';
        return json(res, 200, {
          number,
          business_numbers: [...accounts.values()].flatMap((a) => a.numbers),
          messages: messages.filter((m) => m.to === number || m.from === number),
        });
      }
      case 'POST /sim/switches':
        Object.assign(switches, input);
        return json(res, 200, switches);
      case 'POST /sim/inbound': {
        const result = await sendInbound({
          from: String(input.from ?? ''),
          to: String(input.to ?? [...accounts.values()][0]?.numbers[0] ?? ''),
          body: String(input.body ?? ''),
        }).catch((err: Error) => ({ error: err.message }));
        return json(res, 'error' in result ? 400 : 200, result);
      }
      case 'POST /sim/fail-next':
        sim.failNextSends(
          Number(input.count ?? 1),
          Number(input.status ?? 429),
          Number(input.code ?? 20429),
          typeof input.message === 'string' ? input.message : undefined,
        );
        return json(res, 200, { queued: failNext.length });
      case 'POST /sim/outcomes':
        sim.setOutcome(
          String(input.number ?? ''),
          input.error_code == null ? null : Number(input.error_code),
        );
        return json(res, 200, Object.fromEntries(outcomes));
      case 'POST /sim/inbound-url':
        inboundUrl = typeof input.url === 'string' ? input.url : null;
        return json(res, 200, { inbound_url: inboundUrl });
      case 'POST /sim/accounts': {
        const account: SimAccount = {
          accountSid: String(input.account_sid ?? newSid('AC')),
          authToken: String(input.auth_token ?? newSid('SM').slice(2)),
          numbers: Array.isArray(input.numbers) ? input.numbers.map(String) : [],
          ...(typeof input.inbound_url === 'string' ? { inboundUrl: input.inbound_url } : {}),
        };
        sim.addAccount(account);
        return json(res, 201, { ...publicAccount(account), auth_token: account.authToken });
      }
      case 'POST /sim/reset':
        sim.reset();
        return json(res, 200, { ok: true });
      default:
        return json(res, 404, { error: 'unknown control call' });
    }
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://sim');
      const path = url.pathname;
      if (path === '/phone' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(phonePage);
      }
      if (path.startsWith('/sim/')) return control(req, res, path, url.searchParams);
      const m = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages(?:\/([^/]+))?\.json$/.exec(path);
      if (!m) return twilioError(res, 404, 20404, `The requested resource ${path} was not found`);
      const account = accounts.get(decodeURIComponent(m[1]!));
      const raw = req.method === 'POST' ? await readBody(req) : '';
      if (requests.length >= 100_000) requests.splice(0, 50_000);
      requests.push({
        method: req.method ?? '',
        path,
        authorization: req.headers.authorization ?? null,
        contentType: req.headers['content-type'] ?? null,
        form: Object.fromEntries(new URLSearchParams(raw)),
        mediaUrls: new URLSearchParams(raw).getAll('MediaUrl'),
      });
      if (!authenticated(req, account))
        return twilioError(res, 401, 20003, 'Authenticate', {
          'www-authenticate': 'Basic realm="Twilio API"',
        });
      const sid = m[2] ? decodeURIComponent(m[2]) : null;
      if (req.method === 'POST' && !sid) {
        const type = req.headers['content-type'] ?? '';
        if (!type.startsWith('application/x-www-form-urlencoded'))
          return twilioError(res, 400, 21602, 'Message body is required.');
        return createMessage(res, account!, new URLSearchParams(raw));
      }
      if (req.method === 'GET' && !sid) return listMessages(res, account!, url.searchParams, path);
      if (req.method === 'GET' && sid) {
        const found = bySid.get(sid);
        if (!found || found.account_sid !== account!.accountSid)
          return twilioError(res, 404, 20404, `The requested resource ${path} was not found`);
        return json(res, 200, found);
      }
      return twilioError(res, 405, 20004, 'Method not allowed');
    })().catch(() => {
      if (!res.headersSent) twilioError(res, 500, 20500, 'Internal Server Error');
      else res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const address = server.address() as { port: number; address: string };
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  const base = `http://${host}:${address.port}`;

  const sim: SmsSim = {
    url: base,
    apiUrl: base,
    phoneUrl: `${base}/phone`,
    messages,
    callbacks,
    requests,
    media: mediaBySid,
    switches,
    set: (next) => void Object.assign(switches, next),
    addAccount: (account) => void accounts.set(account.accountSid, account),
    failNextSends(count, status = 429, code = 20429, message = 'Too Many Requests') {
      for (let i = 0; i < count; i++) failNext.push({ status, code, message });
    },
    setOutcome(number, errorCode) {
      if (errorCode === null) outcomes.delete(number);
      else outcomes.set(number, errorCode);
    },
    sendInbound,
    setInboundUrl(url) {
      inboundUrl = url;
    },
    isOptedOut: (sender, phone) => optOuts.has(`${sender}|${phone}`),
    async waitFor(find, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = find();
        if (found) return found;
        if (Date.now() > until) throw new Error('sms-sim: waited in vain');
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    reset() {
      messages.length = 0;
      bySid.clear();
      callbacks.length = 0;
      requests.length = 0;
      mediaBySid.clear();
      failNext.length = 0;
      outcomes.clear();
      optOuts.clear();
      Object.assign(switches, DEFAULT_SWITCHES, options.switches);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      agent.destroy();
      httpsAgent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return sim;
}
