// The simulator: Graph endpoints (sends, mark-as-read, media, templates) checked like Meta, signed
// webhooks for inbound messages and statuses, a control API and the customer phone page.
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { GraphError, invalidParameter, unknownObject, webhookError } from './graph-errors';
import { BodyTooLarge, parseJson, readBody, sendGraph, sendJson } from './http';
import {
  checkUpload,
  MEDIA_KINDS,
  sampleMedia,
  storedMedia,
  type MediaKind,
  type StoredMedia,
} from './media';
import { metaJson, sha1SignatureFor, signatureFor } from './meta-json';
import { describeInbound, describeOutbound, tickState, type ThreadMessage } from './phone-thread';
import { validateSend } from './send-validation';
import { SEED_TEMPLATES, storeTemplates, type SimTemplate, type StoredTemplate } from './templates';
import {
  envelope,
  INBOUND_TYPES,
  inboundContact,
  inboundMessage,
  type Account,
  type InboundSpec,
} from './webhooks';

export type SimOptions = {
  port?: number;
  host?: string;
  accessToken: string;
  appSecret: string;
  phoneNumberId: string;
  wabaId: string;
  displayPhoneNumber: string;
  webhookUrl?: string;
  apiVersion?: string;
  statusDelayMs?: number;
  templates?: SimTemplate[];
  mediaUrlTtlMs?: number;
};

export type SimSwitches = {
  autoStatuses: boolean;
  autoRead: boolean;
  outOfOrder: boolean;
  duplicate: boolean;
  skipDelivered: boolean;
  failDeliveries: null | { code: number; title: string; message: string; details?: string };
};

export type RecordedSend = {
  wamid: string;
  to: string;
  body: Record<string, unknown>;
  at: number;
  statuses: string[];
};

export interface WhatsappCloudSim {
  url: string;
  graphUrl: string;
  phoneUrl: string;
  setWebhookUrl(url: string): void;
  set(switches: Partial<SimSwitches>): void;
  reset(): void;
  failNextSends(code: number, count?: number): void;
  failNextMediaDownloads(count: number): void;
  sendInbound(spec: InboundSpec): Promise<{ wamid: string; status: number }>;
  sendRaw(
    payload: unknown,
    opts?: { signature?: string | null; rawBody?: string },
  ): Promise<{ status: number; body: string }>;
  readMessage(wamid: string): Promise<void>;
  outbound: RecordedSend[];
  markedRead: string[];
  uploads: Map<string, StoredMedia>;
  requests: { method: string; path: string; authorized: boolean }[];
  waitFor<T>(check: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

const defaultSwitches = (): SimSwitches => ({
  autoStatuses: true,
  autoRead: true,
  outOfOrder: false,
  duplicate: false,
  skipDelivered: false,
  failDeliveries: null,
});

const PHONE_PAGE_HTML = readFileSync(new URL('./phone-page.html', import.meta.url), 'utf8');
const SWITCH_KEYS = Object.keys(defaultSwitches()) as (keyof SimSwitches)[];
const DAY_MS = 24 * 60 * 60 * 1000;

type InboundRecord = {
  wamid: string;
  from: string;
  name: string;
  at: number;
  message: Record<string, unknown>;
};
type StatusStep = {
  status: 'sent' | 'delivered' | 'read' | 'failed';
  error?: ReturnType<typeof webhookError>;
};
type Billing = { category: string; billable: boolean; conversationId: string; expiresAt: number };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** Graph object ids are long decimal strings. */
const numericId = () =>
  `${randomInt(1, 10)}${String(randomInt(0, 1e9)).padStart(9, '0')}${String(randomInt(0, 1e6)).padStart(6, '0')}`;

/** Real wamids are base64 of a small binary record that starts with the recipient's number. */
function newWamid(waId: string): string {
  const digits = Buffer.from(waId);
  return `wamid.${Buffer.concat([Buffer.from([0x1c, 0x18, digits.length]), digits, Buffer.from([0x15, 0x02, 0x00, 0x12, 0x18, 0x14]), randomBytes(20)]).toString('base64')}`;
}

function parseSwitches(input: unknown): Partial<SimSwitches> {
  if (!isObj(input)) return {};
  const out: Partial<SimSwitches> = {};
  for (const key of SWITCH_KEYS) {
    if (!(key in input)) continue;
    const value = input[key];
    if (key === 'failDeliveries') {
      if (value === null || value === false) out.failDeliveries = null;
      else if (isObj(value) && typeof value.code === 'number')
        out.failDeliveries = {
          code: value.code,
          title: String(value.title ?? 'Message undeliverable'),
          message: String(value.message ?? value.title ?? 'Message undeliverable'),
          ...(value.details !== undefined ? { details: String(value.details) } : {}),
        };
    } else if (typeof value === 'boolean') out[key] = value;
  }
  return out;
}

export async function startWhatsappCloudSim(opts: SimOptions): Promise<WhatsappCloudSim> {
  const apiVersion = opts.apiVersion ?? 'v21.0';
  const statusDelayMs = opts.statusDelayMs ?? 30;
  const mediaUrlTtlMs = opts.mediaUrlTtlMs ?? 5 * 60 * 1000;
  const account: Account = {
    wabaId: opts.wabaId,
    phoneNumberId: opts.phoneNumberId,
    displayPhoneNumber: opts.displayPhoneNumber,
  };
  const businessNumber = opts.displayPhoneNumber.replace(/\D/g, '');
  const urlKey = randomBytes(32);

  let webhookUrl = opts.webhookUrl;
  let switches = defaultSwitches();
  const failQueue: number[] = [];
  let mediaFailures = 0;
  const outbound: RecordedSend[] = [];
  const markedRead: string[] = [];
  const uploads = new Map<string, StoredMedia>();
  const requests: WhatsappCloudSim['requests'] = [];
  const inbound: InboundRecord[] = [];
  const customers = new Map<string, string>();
  const lastInboundAt = new Map<string, number>();
  const conversations = new Map<string, { id: string; expiresAt: number }>();
  const billingOf = new Map<string, Billing>();
  const templates: StoredTemplate[] = storeTemplates(opts.templates ?? SEED_TEMPLATES, numericId);
  const findTemplate = (name: string, language: string) =>
    templates.find((t) => t.name === name && t.language === language);

  let closed = false;
  // Pending status delays; close() ends them early so nothing posts after it.
  const timers = new Map<NodeJS.Timeout, () => void>();
  const pending = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    pending.add(p);
    void p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.set(t, resolve);
    });

  // ---- Webhooks ----------------------------------------------------------------------------

  async function post(
    target: string,
    body: string,
    signature: string | null,
  ): Promise<{ status: number; body: string }> {
    try {
      const res = await fetch(target, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'facebookexternalua',
          ...(signature === null
            ? {}
            : {
                'x-hub-signature-256': signature,
                'x-hub-signature': sha1SignatureFor(opts.appSecret, body),
              }),
        },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      return { status: res.status, body: await res.text() };
    } catch (err) {
      return { status: 0, body: err instanceof Error ? err.message : String(err) };
    }
  }

  /** Posts one webhook (twice when `duplicate` is on); answers the first delivery's result. */
  async function postWebhook(payload: unknown): Promise<{ status: number; body: string }> {
    if (!webhookUrl) return { status: 0, body: 'no webhook URL set' };
    const body = metaJson(payload);
    const signature = signatureFor(opts.appSecret, body);
    const first = await post(webhookUrl, body, signature);
    if (switches.duplicate && !closed) await post(webhookUrl, body, signature);
    return first;
  }

  // ---- Statuses ----------------------------------------------------------------------------

  const windowOpen = (waId: string) => Date.now() - (lastInboundAt.get(waId) ?? -Infinity) < DAY_MS;

  function billingFor(to: string, template: StoredTemplate | undefined, open: boolean): Billing {
    const category = template ? template.category.toLowerCase() : 'service';
    const key = `${to}:${category}`;
    let conversation = conversations.get(key);
    if (!conversation || conversation.expiresAt <= Date.now()) {
      conversation = { id: randomBytes(16).toString('hex'), expiresAt: Date.now() + DAY_MS };
      conversations.set(key, conversation);
    }
    // Per-message pricing: service replies, and utility templates inside the window, are free.
    const billable = !(category === 'service' || (category === 'utility' && open));
    return { category, billable, conversationId: conversation.id, expiresAt: conversation.expiresAt };
  }

  function statusObject(record: RecordedSend, step: StatusStep, billing: Billing): Obj {
    const withPricing = step.status === 'sent' || step.status === 'delivered';
    const callback = record.body.biz_opaque_callback_data;
    return {
      id: record.wamid,
      status: step.status,
      timestamp: String(nowSeconds()),
      recipient_id: record.to,
      ...(withPricing
        ? {
            conversation: {
              id: billing.conversationId,
              ...(step.status === 'sent'
                ? { expiration_timestamp: String(Math.floor(billing.expiresAt / 1000)) }
                : {}),
              origin: { type: billing.category },
            },
            pricing: {
              billable: billing.billable,
              pricing_model: 'PMP',
              category: billing.category,
              type: billing.billable ? 'regular' : 'free_customer_service',
            },
          }
        : {}),
      ...(typeof callback === 'string' ? { biz_opaque_callback_data: callback } : {}),
      ...(step.error ? { errors: [step.error] } : {}),
    };
  }

  async function postStatus(record: RecordedSend, step: StatusStep, billing: Billing): Promise<void> {
    record.statuses.push(step.status);
    await postWebhook(envelope(account, { statuses: [statusObject(record, step, billing)] }));
  }

  function scheduleStatuses(record: RecordedSend, template: StoredTemplate | undefined): void {
    const open = windowOpen(record.to);
    const billing = billingFor(record.to, template, open);
    billingOf.set(record.wamid, billing);
    let plan: StatusStep[];
    if (!template && !open) {
      // Meta accepts a free-form send outside the 24 h window and fails it afterwards.
      plan = [{ status: 'failed', error: webhookError(131047) }];
    } else if (!switches.autoStatuses) {
      return;
    } else if (switches.failDeliveries) {
      const f = switches.failDeliveries;
      plan = [
        { status: 'sent' },
        {
          status: 'failed',
          error: webhookError(f.code, {
            title: f.title,
            message: f.message,
            ...(f.details ? { details: f.details } : {}),
          }),
        },
      ];
    } else {
      plan = [{ status: 'sent' }];
      if (!switches.skipDelivered) plan.push({ status: 'delivered' });
      if (switches.autoRead) plan.push({ status: 'read' });
    }
    if (switches.outOfOrder) plan.reverse();
    track(
      (async () => {
        for (const step of plan) {
          await sleep(statusDelayMs);
          if (closed) return;
          await postStatus(record, step, billing);
        }
      })(),
    );
  }

  async function readMessage(wamid: string): Promise<void> {
    const record = outbound.find((r) => r.wamid === wamid);
    if (!record) throw new Error(`no outbound message ${wamid}`);
    if (record.statuses.includes('read') || record.statuses.includes('failed')) return;
    const billing = billingOf.get(wamid);
    if (!billing) return;
    await track(postStatus(record, { status: 'read' }, billing));
  }

  // ---- Inbound -----------------------------------------------------------------------------

  async function sendInbound(spec: InboundSpec): Promise<{ wamid: string; status: number }> {
    if (!webhookUrl)
      throw new Error('whatsapp-cloud-sim: no webhook URL (pass webhookUrl or call setWebhookUrl)');
    if (!/^\d{6,15}$/.test(spec.from))
      throw new Error(`whatsapp-cloud-sim: "from" must be digits without "+", got ${spec.from}`);
    if (!INBOUND_TYPES.includes(spec.type))
      throw new Error(`whatsapp-cloud-sim: unknown inbound type ${String(spec.type)}`);
    const wamid = spec.id ?? newWamid(spec.from);
    const timestamp = spec.timestamp ?? nowSeconds();
    const name = spec.name ?? customers.get(spec.from) ?? 'WhatsApp User';
    customers.set(spec.from, name);

    let media: { id: string; stored: StoredMedia; voice: boolean } | undefined;
    if (MEDIA_KINDS.includes(spec.type as MediaKind)) {
      const kind = spec.type as MediaKind;
      const voice = spec.media?.voice ?? false;
      const source = spec.media ?? sampleMedia(kind, voice);
      const stored = storedMedia(source.bytes, source.mime_type, source.filename);
      media = { id: numericId(), stored, voice };
      uploads.set(media.id, stored);
    }
    const message = inboundMessage(spec, { id: wamid, timestamp, businessNumber }, media);
    lastInboundAt.set(spec.from, Math.max(lastInboundAt.get(spec.from) ?? 0, timestamp * 1000));
    if (!inbound.some((m) => m.wamid === wamid))
      inbound.push({
        wamid,
        from: spec.from,
        name,
        at: spec.timestamp ? timestamp * 1000 : Date.now(),
        message,
      });

    const result = await track(
      postWebhook(envelope(account, { contacts: [inboundContact(spec, name)], messages: [message] })),
    );
    return { wamid, status: result.status };
  }

  async function sendRaw(payload: unknown, rawOpts: { signature?: string | null; rawBody?: string } = {}) {
    if (!webhookUrl)
      throw new Error('whatsapp-cloud-sim: no webhook URL (pass webhookUrl or call setWebhookUrl)');
    const body = rawOpts.rawBody ?? metaJson(payload);
    const signature =
      rawOpts.signature === undefined ? signatureFor(opts.appSecret, body) : rawOpts.signature;
    return track(post(webhookUrl, body, signature));
  }

  // ---- Graph -------------------------------------------------------------------------------

  function bearerOk(req: IncomingMessage, url: URL): boolean {
    const header = /^Bearer\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1]?.trim();
    const given = Buffer.from(header ?? url.searchParams.get('access_token') ?? '');
    const expected = Buffer.from(opts.accessToken);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  function handleMessages(body: unknown): Obj {
    if (!isObj(body)) throw invalidParameter('Request body must be a JSON object');
    if (body.messaging_product !== 'whatsapp')
      throw invalidParameter(
        body.messaging_product === undefined
          ? 'The parameter messaging_product is required.'
          : 'Param messaging_product must be one of {WHATSAPP}',
      );
    if (body.status !== undefined) {
      if (body.status !== 'read') throw invalidParameter('Param status must be one of {READ}');
      const id = body.message_id;
      if (typeof id !== 'string' || !inbound.some((m) => m.wamid === id))
        throw invalidParameter(`Param message_id is not a valid message id: ${String(id)}`);
      if (
        body.typing_indicator !== undefined &&
        (!isObj(body.typing_indicator) || body.typing_indicator.type !== 'text')
      )
        throw invalidParameter("Param typing_indicator['type'] must be one of {TEXT}");
      markedRead.push(id);
      return { success: true };
    }
    const queued = failQueue.shift();
    if (queued !== undefined) throw new GraphError(queued);
    const send = validateSend(body, { templates, mediaExists: (id) => uploads.has(id) });
    const record: RecordedSend = {
      wamid: newWamid(send.to),
      to: send.to,
      body,
      at: Date.now(),
      statuses: [],
    };
    outbound.push(record);
    scheduleStatuses(record, send.template);
    return {
      messaging_product: 'whatsapp',
      contacts: [{ input: body.to, wa_id: send.to }],
      messages: [{ id: record.wamid, ...(send.template ? { message_status: 'accepted' } : {}) }],
    };
  }

  async function handleUpload(req: IncomingMessage, body: Buffer): Promise<Obj> {
    const contentType = String(req.headers['content-type'] ?? '');
    if (!contentType.toLowerCase().startsWith('multipart/form-data'))
      throw invalidParameter('Param file is required (send multipart/form-data)');
    let form: FormData;
    try {
      form = await new Request('http://sim.local/', {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: new Uint8Array(body),
      }).formData();
    } catch {
      throw invalidParameter('The multipart body could not be parsed');
    }
    if (form.get('messaging_product') !== 'whatsapp')
      throw invalidParameter('The parameter messaging_product is required.');
    const file = form.get('file');
    if (!file || typeof file === 'string') throw invalidParameter('Param file is required');
    const typeField = form.get('type');
    const mime = (typeof typeField === 'string' && typeField) || file.type;
    if (!mime) throw invalidParameter('Param type is required');
    const bytes = Buffer.from(await file.arrayBuffer());
    checkUpload(mime, bytes);
    const id = numericId();
    uploads.set(id, storedMedia(bytes, mime, file.name && file.name !== 'blob' ? file.name : undefined));
    return { id };
  }

  const mediaSignature = (id: string, exp: string) =>
    createHmac('sha256', urlKey).update(`${id}.${exp}`).digest('hex').slice(0, 32);

  function mediaInfo(id: string, media: StoredMedia): Obj {
    const exp = String(Date.now() + mediaUrlTtlMs);
    return {
      messaging_product: 'whatsapp',
      url: `${base}/media-download/${id}?exp=${exp}&sig=${mediaSignature(id, exp)}`,
      mime_type: media.mime_type,
      sha256: media.sha256,
      file_size: media.bytes.length,
      id,
    };
  }

  function listTemplates(url: URL, version: string): Obj {
    const q = url.searchParams;
    const limit = Math.min(Math.max(Number(q.get('limit') ?? 25) || 25, 1), 1000);
    const filtered = templates.filter(
      (t) =>
        (!q.get('status') || t.status === q.get('status')?.toUpperCase()) &&
        (!q.get('category') || t.category === q.get('category')?.toUpperCase()) &&
        (!q.get('language') || t.language === q.get('language')) &&
        (!q.get('name') || t.name.includes(q.get('name') ?? '')),
    );
    const cursor = (i: number) => Buffer.from(`tpl:${i}`).toString('base64url');
    const decode = (c: string | null) => {
      const m = c ? /^tpl:(\d+)$/.exec(Buffer.from(c, 'base64url').toString()) : null;
      if (c && !m) throw invalidParameter(`Invalid cursor: ${c}`);
      return m ? Number(m[1]) : null;
    };
    const after = decode(q.get('after'));
    const before = decode(q.get('before'));
    const start = after !== null ? after + 1 : before !== null ? Math.max(0, before - limit) : 0;
    const end = before !== null && after === null ? before : start + limit;
    const page = filtered.slice(start, Math.min(end, filtered.length));
    const fields = q
      .get('fields')
      ?.split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const data = page.map((t) => {
      const full: Obj = {
        id: t.id,
        name: t.name,
        language: t.language,
        status: t.status,
        category: t.category,
        parameter_format: t.parameter_format,
        components: t.components,
      };
      return fields?.length
        ? Object.fromEntries(Object.entries(full).filter(([k]) => k === 'id' || fields.includes(k)))
        : full;
    });
    if (page.length === 0) return { data };
    const link = (param: 'after' | 'before', value: string) => {
      const next = new URL(`${base}/${version}/${opts.wabaId}/message_templates`);
      for (const [k, v] of q)
        if (!['after', 'before', 'access_token'].includes(k)) next.searchParams.set(k, v);
      next.searchParams.set('limit', String(limit));
      next.searchParams.set(param, value);
      return next.toString();
    };
    const paging: Obj = { cursors: { before: cursor(start), after: cursor(start + page.length - 1) } };
    if (start + page.length < filtered.length) paging.next = link('after', cursor(start + page.length - 1));
    if (start > 0) paging.previous = link('before', cursor(start));
    return { data, paging };
  }

  async function handleGraph(
    req: IncomingMessage,
    url: URL,
    version: string,
    rest: string[],
    body: Buffer,
  ): Promise<{ status?: number; body: Obj }> {
    const method = req.method ?? 'GET';
    const [id = '', edge, ...extra] = rest;
    if (extra.length)
      throw new GraphError(2500, undefined, `Unknown path components: /${[edge, ...extra].join('/')}`);
    if (edge === 'messages' || edge === 'media') {
      if (method !== 'POST') throw unknownObject(method, `${id}/${edge}`);
      if (id !== opts.phoneNumberId) throw unknownObject(method, id);
      return { body: edge === 'messages' ? handleMessages(parseJson(body)) : await handleUpload(req, body) };
    }
    if (edge === 'message_templates' || edge === 'subscribed_apps' || edge === 'phone_numbers') {
      if (id !== opts.wabaId) throw unknownObject(method, id);
      if (edge === 'message_templates' && method === 'GET') return { body: listTemplates(url, version) };
      if (edge === 'subscribed_apps' && method === 'POST') return { body: { success: true } };
      if (edge === 'subscribed_apps' && method === 'GET')
        return { body: { data: [{ whatsapp_business_api_data: { id: '1', name: 'Titan' } }] } };
      if (edge === 'phone_numbers' && method === 'GET') return { body: { data: [phoneNumberInfo()] } };
      throw unknownObject(method, `${id}/${edge}`);
    }
    if (edge !== undefined) throw new GraphError(2500, undefined, `Unknown path components: /${edge}`);
    if (id === opts.phoneNumberId && method === 'GET') return { body: phoneNumberInfo() };
    if (id === opts.wabaId && method === 'GET')
      return {
        body: {
          id: opts.wabaId,
          name: 'Titan (simulated)',
          currency: 'USD',
          timezone_id: '1',
          message_template_namespace: 'titan_sim',
        },
      };
    const media = uploads.get(id);
    if (media && method === 'GET') return { body: mediaInfo(id, media) };
    if (media && method === 'DELETE') {
      uploads.delete(id);
      return { body: { success: true } };
    }
    throw unknownObject(method, id);
  }

  const phoneNumberInfo = () => ({
    verified_name: 'Titan (simulated)',
    display_phone_number: opts.displayPhoneNumber,
    id: opts.phoneNumberId,
    quality_rating: 'GREEN',
    code_verification_status: 'VERIFIED',
    platform_type: 'CLOUD_API',
    throughput: { level: 'STANDARD' },
  });

  function handleMediaDownload(req: IncomingMessage, res: ServerResponse, url: URL, id: string): void {
    const authorized = bearerOk(req, url);
    requests.push({ method: req.method ?? 'GET', path: url.pathname, authorized });
    if (!authorized) {
      res.writeHead(401, { 'content-type': 'text/plain' });
      return void res.end('Unauthorized');
    }
    const exp = url.searchParams.get('exp') ?? '';
    const sig = Buffer.from(url.searchParams.get('sig') ?? '');
    const expected = Buffer.from(mediaSignature(id, exp));
    const media = uploads.get(id);
    if (
      !media ||
      sig.length !== expected.length ||
      !timingSafeEqual(sig, expected) ||
      !(Number(exp) > Date.now())
    ) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('URL signature expired');
    }
    if (mediaFailures > 0) {
      mediaFailures--;
      res.writeHead(500, { 'content-type': 'text/plain' });
      return void res.end('Internal Server Error');
    }
    res.writeHead(200, {
      'content-type': media.mime_type,
      'content-length': String(media.bytes.length),
      ...(media.filename
        ? { 'content-disposition': `attachment; filename="${encodeURIComponent(media.filename)}"` }
        : {}),
    });
    res.end(media.bytes);
  }

  // ---- Control API and phone page ----------------------------------------------------------

  function outboundSummary(r: RecordedSend) {
    return { ...r, state: tickState(r.statuses) };
  }

  function thread(waId: string): ThreadMessage[] {
    const messages: ThreadMessage[] = [
      ...inbound
        .filter((m) => m.from === waId)
        .map((m): ThreadMessage => ({
          direction: 'in',
          wamid: m.wamid,
          at: m.at,
          readByBusiness: markedRead.includes(m.wamid),
          ...describeInbound(m.message),
        })),
      ...outbound
        .filter((r) => r.to === waId)
        .map((r): ThreadMessage => ({
          direction: 'out',
          wamid: r.wamid,
          at: r.at,
          status: tickState(r.statuses),
          ...describeOutbound(r.body, findTemplate),
        })),
    ];
    return messages.sort((a, b) => a.at - b.at);
  }

  function knownCustomers() {
    const ids = new Set([...customers.keys(), ...outbound.map((r) => r.to)]);
    return [...ids].map((wa_id) => ({
      wa_id,
      name: customers.get(wa_id) ?? '',
      windowOpen: windowOpen(wa_id),
    }));
  }

  function inboundSpecFromJson(input: unknown): InboundSpec {
    if (!isObj(input) || typeof input.from !== 'string' || typeof input.type !== 'string')
      throw new Error('inbound needs "from" and "type"');
    const spec = { ...input } as unknown as InboundSpec & { media?: { base64?: string } };
    if (isObj(input.media)) {
      const m = input.media;
      // `{voice: true}` alone asks for the sample voice note.
      if (m.base64 === undefined && m.voice === true && input.type === 'audio') {
        spec.media = { ...sampleMedia('audio', true), voice: true };
        return spec;
      }
      if (typeof m.base64 !== 'string' || typeof m.mime_type !== 'string')
        throw new Error('media needs "base64" and "mime_type"');
      spec.media = {
        bytes: Buffer.from(m.base64, 'base64'),
        mime_type: m.mime_type,
        ...(typeof m.filename === 'string' ? { filename: m.filename } : {}),
        ...(typeof m.voice === 'boolean' ? { voice: m.voice } : {}),
      };
    }
    return spec;
  }

  async function handleControl(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Buffer,
  ): Promise<void> {
    const method = req.method ?? 'GET';
    const input = parseJson(body);
    const route = `${method} ${url.pathname.replace(/\/$/, '')}`;
    try {
      switch (route) {
        case 'GET /sim/state':
          return sendJson(res, 200, {
            webhookUrl: webhookUrl ?? null,
            switches,
            outbound: outbound.map(outboundSummary),
            markedRead,
            inbound: inbound.map((m) => ({
              wamid: m.wamid,
              from: m.from,
              name: m.name,
              at: m.at,
              type: m.message.type,
            })),
            uploads: [...uploads].map(([id, m]) => ({
              id,
              mime_type: m.mime_type,
              size: m.bytes.length,
              sha256: m.sha256,
              filename: m.filename,
            })),
            pendingFailures: { sends: [...failQueue], mediaDownloads: mediaFailures },
          });
        case 'POST /sim/switches':
          api.set(parseSwitches(input));
          return sendJson(res, 200, { switches });
        case 'POST /sim/reset':
          api.reset();
          return sendJson(res, 200, { switches });
        case 'POST /sim/webhook-url':
          if (!isObj(input) || typeof input.url !== 'string')
            return sendJson(res, 400, { error: 'url is required' });
          webhookUrl = input.url;
          return sendJson(res, 200, { webhookUrl });
        case 'POST /sim/inbound':
          return sendJson(res, 200, await sendInbound(inboundSpecFromJson(input)));
        case 'POST /sim/read': {
          const wamid = isObj(input) ? input.wamid : undefined;
          if (typeof wamid !== 'string' || !outbound.some((r) => r.wamid === wamid))
            return sendJson(res, 404, { error: 'unknown wamid' });
          await readMessage(wamid);
          return sendJson(res, 200, { ok: true });
        }
        case 'POST /sim/fail-next-sends': {
          if (!isObj(input) || typeof input.code !== 'number')
            return sendJson(res, 400, { error: 'code is required' });
          api.failNextSends(input.code, typeof input.count === 'number' ? input.count : 1);
          return sendJson(res, 200, { pending: failQueue.length });
        }
        case 'POST /sim/fail-next-media-downloads': {
          const count = isObj(input) && typeof input.count === 'number' ? input.count : 1;
          api.failNextMediaDownloads(count);
          return sendJson(res, 200, { pending: mediaFailures });
        }
        default:
          return sendJson(res, 404, { error: `no control route ${route}` });
      }
    } catch (err) {
      return sendJson(res, 400, { error: err instanceof Error ? err.message : String(err) });
    }
  }

  function handlePhone(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const path = url.pathname.replace(/\/$/, '');
    if (path === '/phone') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(PHONE_PAGE_HTML);
    }
    if (path === '/phone/api/thread') {
      const waId = url.searchParams.get('wa_id') ?? '';
      return sendJson(res, 200, {
        business: { name: 'Titan (simulated)', display_phone_number: opts.displayPhoneNumber },
        customer: { wa_id: waId, name: customers.get(waId) ?? '', windowOpen: windowOpen(waId) },
        customers: knownCustomers(),
        switches,
        webhookUrl: webhookUrl ?? null,
        messages: thread(waId),
      });
    }
    // Previews for the page only: the Graph download with its bearer check stays the real path.
    const media = /^\/phone\/media\/(\w+)$/.exec(path);
    const stored = media?.[1] ? uploads.get(media[1]) : undefined;
    if (stored) {
      res.writeHead(200, { 'content-type': stored.mime_type, 'cache-control': 'no-store' });
      return void res.end(stored.bytes);
    }
    sendJson(res, 404, { error: 'not found' });
  }

  // ---- Server ------------------------------------------------------------------------------

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', base);
    const graph = /^\/(v\d+(?:\.\d+)?)\/(.+)$/.exec(url.pathname);
    if (graph) {
      const [, version = apiVersion, rest = ''] = graph;
      const authorized = bearerOk(req, url);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, authorized });
      try {
        if (!authorized) throw new GraphError(190);
        const body = await readBody(req);
        const result = await handleGraph(
          req,
          url,
          version,
          rest.split('/').filter(Boolean).map(decodeURIComponent),
          body,
        );
        return sendGraph(res, result.status ?? 200, result.body);
      } catch (err) {
        if (err instanceof BodyTooLarge)
          return sendGraph(res, 413, new GraphError(131053, 'Request body too large').toBody());
        const e =
          err instanceof GraphError
            ? err
            : new GraphError(131000, err instanceof Error ? err.message : String(err));
        return sendGraph(
          res,
          e.httpStatus,
          e.toBody(),
          e.code === 190
            ? { 'www-authenticate': `OAuth "Facebook Platform" "invalid_token" "${e.message}"` }
            : {},
        );
      }
    }
    const download = /^\/media-download\/(\w+)$/.exec(url.pathname);
    if (download?.[1] && req.method === 'GET') return handleMediaDownload(req, res, url, download[1]);
    if (url.pathname === '/phone' || url.pathname.startsWith('/phone/')) return handlePhone(req, res, url);
    if (url.pathname.startsWith('/sim/')) return handleControl(req, res, url, await readBody(req));
    if (url.pathname === '/') {
      res.writeHead(302, { location: '/phone' });
      return void res.end();
    }
    sendJson(res, 404, { error: 'not found' });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) });
      else res.destroy();
    });
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const publicHost =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${publicHost}:${port}`;

  const api: WhatsappCloudSim = {
    url: base,
    graphUrl: `${base}/${apiVersion}`,
    phoneUrl: `${base}/phone`,
    setWebhookUrl: (next) => {
      webhookUrl = next;
    },
    set: (next) => {
      switches = { ...switches, ...next };
    },
    reset: () => {
      switches = defaultSwitches();
      failQueue.length = 0;
      mediaFailures = 0;
    },
    failNextSends: (code, count = 1) => {
      for (let i = 0; i < count; i++) failQueue.push(code);
    },
    failNextMediaDownloads: (count) => {
      mediaFailures += count;
    },
    sendInbound,
    sendRaw,
    readMessage,
    outbound,
    markedRead,
    uploads,
    requests,
    waitFor: async <T>(check: () => T | undefined | false, timeoutMs = 5000): Promise<T> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = check();
        if (value !== undefined && value !== false) return value;
        if (Date.now() > deadline)
          throw new Error(`whatsapp-cloud-sim: waitFor timed out after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 15));
      }
    },
    close: async () => {
      closed = true;
      for (const [t, resolve] of timers) {
        clearTimeout(t);
        resolve();
      }
      timers.clear();
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}
