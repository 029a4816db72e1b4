// The host page as the chat sees it: its state through the bridge (open, identity), whether the chat
// is in view (open on a visible tab), Escape to close, and the unread count for its launcher.
import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';

import type { Bridge } from '../bridge';

function subscribePageVisibility(listener: () => void) {
  document.addEventListener('visibilitychange', listener);
  return () => document.removeEventListener('visibilitychange', listener);
}
export const pageVisible = () => document.visibilityState === 'visible';

/** The host page's state, and whether the chat is shown: open there, on a visible tab. */
export function useHostPage(bridge: Bridge) {
  const host = useSyncExternalStore(bridge.subscribe, bridge.getState);
  const shown = useSyncExternalStore(subscribePageVisibility, pageVisible) && host.open;
  return { host, shown };
}

/**
 * Calls `onChange` when the host page changes (opened, closed, another user signed in) or the tab's
 * visibility does: from the sources, before React renders the new state.
 */
export function useHostChanges(bridge: Bridge, onChange: () => void) {
  const notify = useEffectEvent(onChange);
  useEffect(() => {
    const listener = () => notify();
    const offBridge = bridge.subscribe(listener);
    document.addEventListener('visibilitychange', listener);
    return () => {
      offBridge();
      document.removeEventListener('visibilitychange', listener);
    };
  }, [bridge]);
}

/** Escape closes the embedded chat, as it would a dialog. */
export function useEscapeCloses(bridge: Bridge, embedded: boolean) {
  useEffect(() => {
    if (!embedded) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') bridge.post({ type: 'close' });
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [bridge, embedded]);
}

/** The unread staff replies, summed for the host page's launcher badge. */
export function useUnreadBadge(bridge: Bridge, unread: Record<number, number>) {
  const total = Object.values(unread).reduce((sum, n) => sum + n, 0);
  useEffect(() => bridge.post({ type: 'unread', count: total }), [bridge, total]);
}
