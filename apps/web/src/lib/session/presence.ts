// The signed-in member's presence (next-api.md "Team inbox"): what they chose in the avatar menu
// (remembered in this browser; online by default) is sent when the app opens and when it changes;
// after IDLE_MS without a key, pointer or focus the app says "away" (only over a chosen "online"),
// and "online" again at the next sign of life. The server turns them offline once every tab closed.
import { ZEnvelope, ZPresence, type TPresenceStatus } from '@titan/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';

import { protectedClient } from '../protected-client';

export const PRESENCE_PATH = '/api/users/presence/';
export const IDLE_MS = 5 * 60 * 1000;
const CHOICE_KEY = 'titan.presence';

export async function putPresence(status: TPresenceStatus) {
  const { data } = await protectedClient.put(PRESENCE_PATH, { status });
  return ZEnvelope(ZPresence).parse(data).result;
}

function storedChoice(): TPresenceStatus {
  const saved = globalThis.localStorage?.getItem(CHOICE_KEY);
  return saved === 'away' || saved === 'offline' ? saved : 'online';
}

const ACTIVITY = ['pointerdown', 'pointermove', 'keydown', 'focus', 'wheel', 'touchstart'] as const;

/** The member's chosen presence and a way to change it; idle detection runs while it is mounted. */
export function usePresence(idleMs = IDLE_MS) {
  const [choice, setChoice] = useState<TPresenceStatus>(storedChoice);
  const [shown, setShown] = useState<TPresenceStatus>(choice);
  const sent = useRef<TPresenceStatus | null>(null);

  const send = useCallback((status: TPresenceStatus) => {
    if (sent.current === status) return;
    sent.current = status;
    setShown(status);
    putPresence(status).catch(() => {
      sent.current = null; // tried again at the next change or sign of life
    });
  }, []);

  useEffect(() => send(choice), [choice, send]);

  useEffect(() => {
    if (choice !== 'online') return;
    let timer = setTimeout(() => send('away'), idleMs);
    const active = () => {
      clearTimeout(timer);
      send('online');
      timer = setTimeout(() => send('away'), idleMs);
    };
    for (const event of ACTIVITY) window.addEventListener(event, active, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const event of ACTIVITY) window.removeEventListener(event, active);
    };
  }, [choice, idleMs, send]);

  const choose = useCallback((status: TPresenceStatus) => {
    globalThis.localStorage?.setItem(CHOICE_KEY, status);
    setChoice(status);
  }, []);

  return { choice, shown, choose };
}
