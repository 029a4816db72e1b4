// Titan's own chat (titan_message): sending is storing the message, which the realtime feed
// delivers to the visitor. The message is stored before the send is handed over (record before
// call), so the adapter accepts at once, naming the message as the provider's id; no events follow.
import type { ChannelAdapter } from '../channel';

/** What a titan_message send carries: the stored message it stands for. */
export type TitanPayload = Record<string, unknown> & { message_id?: unknown };

export const titan: ChannelAdapter<null, TitanPayload> = {
  async send(_account, payload) {
    const id = payload.message_id;
    if (typeof id !== 'number' && typeof id !== 'string') {
      return {
        ok: false,
        errorCode: 'no_message',
        errorMessage: titan.describeError('no_message'),
        response: null,
        cause: null,
      };
    }
    return { ok: true, providerMessageId: String(id), response: null };
  },
  parseEvents() {
    return [];
  },
  describeError(code, fallback) {
    if (code === 'no_message') return 'The send names no stored message.';
    return fallback ?? `The message could not be stored (${code ?? 'unknown'}).`;
  },
};
