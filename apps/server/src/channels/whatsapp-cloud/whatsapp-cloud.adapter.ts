// WhatsApp through Meta's Cloud API: a send is one Graph call (retried in place on Meta's "not
// now" codes), statuses come from webhook `value.statuses`, and Meta's codes say what went wrong.
import { GraphError, type GraphClient, type GraphCredentials } from './whatsapp-cloud.graph';
import type { ChannelAdapter, ParsedEvent, SendOutcome } from '../channel';
import { describeGraphError } from './whatsapp-cloud.errors';

export type WhatsappCloudAccount = { graph: GraphClient; creds: GraphCredentials };

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** Meta's Unix seconds; anything else is no timestamp. */
function secondsOf(v: unknown): number | null {
  const n = typeof v === 'string' || typeof v === 'number' ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= 2_147_483_647 ? n : null;
}

/** The statuses Meta reports about a sent message (anything else is ignored). */
export const WHATSAPP_STATUSES = new Set(['accepted', 'sent', 'delivered', 'read', 'failed']);

/** The statuses of one change's `value` (the webhook's `statuses[]`), in delivery order. */
function parseStatuses(value: unknown): ParsedEvent[] {
  const events: ParsedEvent[] = [];
  for (const raw of list(obj(value).statuses)) {
    const status = obj(raw);
    const id = text(status.id);
    const type = text(status.status);
    if (!id || !type || !WHATSAPP_STATUSES.has(type)) continue;
    events.push({ providerMessageId: id, type, timestamp: secondsOf(status.timestamp), payload: status });
  }
  return events;
}

export const whatsappCloud: ChannelAdapter<WhatsappCloudAccount, Record<string, unknown>> = {
  async send({ graph, creds }, payload): Promise<SendOutcome> {
    try {
      const result = await graph.sendMessage(creds, payload);
      return { ok: true, providerMessageId: result.wamid, response: result.response };
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      return {
        ok: false,
        errorCode: String(err.code),
        errorMessage: describeGraphError(err.code, err.details ?? err.message),
        response: err.body,
        cause: err,
      };
    }
  },
  /** A whole webhook body: every entry × change × status. */
  parseEvents(raw) {
    const events: ParsedEvent[] = [];
    for (const entry of list(obj(raw).entry))
      for (const change of list(obj(entry).changes)) {
        if (obj(change).field !== 'messages') continue;
        events.push(...parseStatuses(obj(change).value));
      }
    return events;
  },
  describeError(code, fallback) {
    const n = code === null ? null : Number(code);
    return describeGraphError(n !== null && Number.isFinite(n) ? n : null, fallback);
  },
};
