// Browser notifications: Web Push through the service worker (public/notifications-sw.js) when the
// browser can, and the page's own Notification while a tab is hidden when it cannot. The push
// subscription is made with the server's VAPID key and registered for this member and sign-in;
// signing out removes it (server and browser).
import { registerBeforeLogout } from '../../../lib/session/logout';
import { deletePushSubscription, getPushSetup, savePushSubscription } from '../api/push-subscriptions';

export const SERVICE_WORKER_URL = '/notifications-sw.js';
const SOUND_KEY = 'titan-notification-sound';

export type TPushState = 'enabled' | 'disabled' | 'denied' | 'unsupported';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
}

export async function pushState(): Promise<TPushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  if (Notification.permission !== 'granted') return 'disabled';
  return (await currentSubscription()) ? 'enabled' : 'disabled';
}

/**
 * Subscribes this browser (asking permission when `ask`) and registers the subscription for the
 * signed-in member: run again at every start, so a new sign-in takes the browser over.
 */
export async function enablePush(ask = true): Promise<TPushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = ask ? await Notification.requestPermission() : Notification.permission;
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'disabled';
  const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  await navigator.serviceWorker.ready;
  const { vapid_public_key: vapid } = await getPushSetup();
  const key = keyBytes(vapid);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  await savePushSubscription(subscription.toJSON());
  return 'enabled';
}

/** Removes this browser's subscription: on the server (best effort) and in the browser. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription().catch(() => null);
  if (!subscription) return;
  try {
    await deletePushSubscription(subscription.endpoint);
  } catch {
    // Gone already, or the session ended: the server drops it with the session anyway.
  }
  await subscription.unsubscribe().catch(() => undefined);
}

registerBeforeLogout(disablePush);

/** Whether new notifications play a sound (per browser; on unless turned off). */
export function soundEnabled(): boolean {
  try {
    return window.localStorage.getItem(SOUND_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function setSoundEnabled(on: boolean): void {
  try {
    window.localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
  } catch {
    // Storage blocked: the default (on) stays.
  }
}

let audio: AudioContext | null = null;

/** A short two-note chime, made with Web Audio (no file to fetch). */
export function playChime(): void {
  if (!soundEnabled() || typeof window.AudioContext === 'undefined') return;
  try {
    audio ??= new window.AudioContext();
    const start = audio.currentTime;
    for (const [i, frequency] of [880, 1318.5].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      const at = start + i * 0.12;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.25);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.3);
    }
  } catch {
    // No audio device or autoplay refused: the bell still shows it.
  }
}

/**
 * The page's own browser notification, for a browser without push: only while the tab is hidden
 * (a visible tab has the bell) and permission was given.
 */
export async function showPageNotification(title: string, body: string, onClick: () => void): Promise<void> {
  if (typeof window === 'undefined' || !('Notification' in window)) return;
  if (document.visibilityState !== 'hidden' || Notification.permission !== 'granted') return;
  if (await currentSubscription().catch(() => null)) return; // the service worker shows pushes
  const n = new Notification(title, { body });
  n.onclick = () => {
    window.focus();
    onClick();
    n.close();
  };
}
