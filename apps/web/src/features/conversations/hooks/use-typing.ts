// Typing indicators in the open conversation (next-api.md "Team inbox": realtime `typing` both ways).
// Heard: the messages subscription (use-live-messages) hands each signal to this store, which keeps
// who is typing per conversation until their signals stop for TYPING_SHOWN_MS or their message
// arrives. Said: the reply composer calls the notifier on every keystroke; it sends at most one
// signal per TYPING_SEND_EVERY_MS (the server drops more than one a second anyway). The note
// composer never says it: visitors hear a conversation's typing, and a note is not for them.
import type { TTypingWho } from '@titan/contracts';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

import { realtimeClient } from '../../../lib/realtime';

/** How often the composer repeats "typing" while keys keep coming. */
export const TYPING_SEND_EVERY_MS = 2_500;
/** How long a typer stays shown after their last signal (two missed repeats and a little). */
export const TYPING_SHOWN_MS = 6_000;

type TTyper = { key: string; who: TTypingWho; until: number };

const typers = new Map<number, TTyper[]>();
const listeners = new Set<() => void>();
const EMPTY: TTyper[] = [];
let sweep: ReturnType<typeof setTimeout> | null = null;

const keyOf = (who: Pick<TTypingWho, 'type' | 'id' | 'name'>) => `${who.type}:${who.id ?? who.name}`;

function emit() {
  for (const listener of listeners) listener();
}

/** Drops expired typers and plans the next sweep for the soonest expiry. */
function expire() {
  sweep = null;
  const now = Date.now();
  let next = Infinity;
  let changed = false;
  for (const [conversationId, list] of typers) {
    const alive = list.filter((t) => t.until > now);
    if (alive.length !== list.length) {
      changed = true;
      if (alive.length === 0) typers.delete(conversationId);
      else typers.set(conversationId, alive);
    }
    for (const t of alive) next = Math.min(next, t.until);
  }
  if (next !== Infinity) sweep = setTimeout(expire, Math.max(0, next - now));
  if (changed) emit();
}

/** A typing signal heard for a conversation. */
export function heardTyping(conversationId: number, who: TTypingWho, now = Date.now()) {
  const key = keyOf(who);
  const list = (typers.get(conversationId) ?? []).filter((t) => t.key !== key);
  typers.set(conversationId, [...list, { key, who, until: now + TYPING_SHOWN_MS }]);
  if (sweep) clearTimeout(sweep);
  expire();
  emit();
}

/** Their message arrived: whoever sent it has stopped typing. */
export function stoppedTyping(
  conversationId: number,
  who: { type: 'staff' | 'customer'; id: number | null },
) {
  const list = typers.get(conversationId);
  if (!list || who.id === null) return;
  const key = keyOf({ type: who.type, id: who.id, name: '' });
  const rest = list.filter((t) => t.key !== key);
  if (rest.length === list.length) return;
  if (rest.length === 0) typers.delete(conversationId);
  else typers.set(conversationId, rest);
  emit();
}

/** Forgets everything (tests). */
export function resetTyping() {
  typers.clear();
  if (sweep) clearTimeout(sweep);
  sweep = null;
  emit();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Who is typing in the conversation now (never the caller: the server does not echo). */
export function useTypers(conversationId: number): TTypingWho[] {
  const list = useSyncExternalStore(subscribe, () => typers.get(conversationId) ?? EMPTY);
  return list.map((t) => t.who);
}

/** A function the composer calls as the text changes; signals go out throttled. */
export function useTypingNotifier(conversationId: number): (text: string) => void {
  const last = useRef(0);
  useEffect(() => {
    last.current = 0;
  }, [conversationId]);
  return useCallback(
    (text: string) => {
      if (text.trim() === '') return;
      const now = Date.now();
      if (now - last.current < TYPING_SEND_EVERY_MS) return;
      last.current = now;
      realtimeClient().typing(conversationId);
    },
    [conversationId],
  );
}
