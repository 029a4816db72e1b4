// The postMessage protocol between the loader on the host page and the chat frame on Titan's
// origin. Both sides post with an explicit target origin and accept only the other side's origin.

export const BRIDGE_NS = 'titan-chat';

/** What an embedding site may tell the widget about its signed-in user (identity verification). */
export type TIdentity = { user_id?: string; user_hash?: string; name?: string; email?: string };

/** What the chat keeps across reloads (spec section 9), under `titan:{business}:{group|_}:{key}`. */
export type TStoredKey = 'visitor' | 'conversation';
export const STORED_KEYS: readonly TStoredKey[] = ['visitor', 'conversation'];
/** Longer values are not what the chat stores; the loader refuses them. */
export const STORED_VALUE_MAX = 4096;

export function storageKey(business: string, group: string | null, key: TStoredKey): string {
  return `titan:${business}:${group || '_'}:${key}`;
}

export type THostToFrame =
  /**
   * `stored`: the host page's copy of the chat's keys. Browsers that block storage in third-party
   * frames leave the frame nothing across reloads, so it keeps them on the host page instead.
   */
  | { type: 'init'; open: boolean; identity: TIdentity | null; stored: Partial<Record<TStoredKey, string>> }
  | { type: 'identify'; identity: TIdentity }
  | { type: 'visibility'; open: boolean };

export type TFrameToHost =
  | { type: 'ready' }
  | { type: 'info'; color: string; position: 'left' | 'right' }
  | { type: 'unread'; count: number }
  /** The launcher's words in the chat's language: `open` already tells the unread count. */
  | { type: 'labels'; open: string; close: string; dialog: string }
  | { type: 'close' }
  | { type: 'store'; key: TStoredKey; value: string | null };

export type TBridgeMessage<T> = T & { ns: typeof BRIDGE_NS };

export function isBridgeMessage<T extends { type: string }>(data: unknown): data is TBridgeMessage<T> {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { ns?: unknown }).ns === BRIDGE_NS &&
    typeof (data as { type?: unknown }).type === 'string'
  );
}
