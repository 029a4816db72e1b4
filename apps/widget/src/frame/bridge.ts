// The frame's side of the postMessage bridge: it talks to the host page's origin only, and only
// when the browser confirms that origin really is the page embedding it.
import {
  BRIDGE_NS,
  isBridgeMessage,
  type TFrameToHost,
  type THostToFrame,
  type TIdentity,
  type TStoredKey,
} from '../shared/bridge-protocol';

export type TBridgeState = {
  /** Whether the host page shows the chat. */
  open: boolean;
  identity: TIdentity | null;
};

/** Key-value storage kept by the host page (see THostToFrame `init`). */
export type HostStorage = {
  read(key: TStoredKey): string | null;
  write(key: TStoredKey, value: string | null): void;
};

export type Bridge = {
  post(message: TFrameToHost): void;
  /** Null when there is no host page to keep anything. */
  hostStorage: HostStorage | null;
  getState(): TBridgeState;
  subscribe(listener: () => void): () => void;
  /** Settles once the host page has answered `ready` (or after a short wait, without it). */
  initialized: Promise<void>;
};

/** A bridge that is always open: the hosted page, or a frame whose host cannot be trusted. */
export function standaloneBridge(): Bridge {
  const state: TBridgeState = { open: true, identity: null };
  return {
    post: () => undefined,
    hostStorage: null,
    getState: () => state,
    subscribe: () => () => undefined,
    initialized: Promise.resolve(),
  };
}

const INIT_WAIT_MS = 2000;

export function connectBridge(hostOrigin: string | null): Bridge {
  const ancestors = window.location.ancestorOrigins as DOMStringList | undefined;
  if (!hostOrigin || window.parent === window || (ancestors?.length && ancestors[0] !== hostOrigin)) {
    return standaloneBridge();
  }
  const parent = window.parent;
  let state: TBridgeState = { open: false, identity: null };
  let stored: Partial<Record<TStoredKey, string>> = {};
  const listeners = new Set<() => void>();
  let markInitialized: () => void = () => undefined;
  const initialized = new Promise<void>((resolve) => {
    markInitialized = resolve;
    setTimeout(resolve, INIT_WAIT_MS);
  });
  const update = (patch: Partial<TBridgeState>) => {
    state = { ...state, ...patch };
    for (const listener of listeners) listener();
  };

  window.addEventListener('message', (event) => {
    if (event.source !== parent || event.origin !== hostOrigin) return;
    if (!isBridgeMessage<THostToFrame>(event.data)) return;
    const message = event.data;
    switch (message.type) {
      case 'init':
        stored = { ...message.stored };
        update({ open: message.open, identity: message.identity });
        markInitialized();
        return;
      case 'identify':
        update({ identity: message.identity });
        return;
      case 'visibility':
        update({ open: message.open });
        return;
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  });

  const post = (message: TFrameToHost) => parent.postMessage({ ns: BRIDGE_NS, ...message }, hostOrigin);
  return {
    post,
    hostStorage: {
      read: (key) => stored[key] ?? null,
      write(key, value) {
        if (value === null) delete stored[key];
        else stored[key] = value;
        post({ type: 'store', key, value });
      },
    },
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    initialized,
  };
}
