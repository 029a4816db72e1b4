// Titan's own chat (titan_message): sending is storing the message, which the realtime feed
// delivers to the visitor; so the adapter accepts at once, with no provider id and no events.
import type { ChannelAdapter } from '../channel';

export const titan: ChannelAdapter<null, Record<string, unknown>> = {
  async send() {
    return { ok: true, providerMessageId: null, response: null };
  },
  parseEvents() {
    return [];
  },
  describeError(code, fallback) {
    return fallback ?? `The message could not be stored (${code ?? 'unknown'}).`;
  },
};
